import { clamp, operationTool, toInt } from '../paramValues.js';
import type { BlockConfig } from '../types.js';
import { longInput, operationField, secretField, shortInput, when } from './fields.js';

/** Discord operation → tool id. */
export const DISCORD_TOOLS = {
  discord_send_message: 'discord_send_message',
  discord_get_messages: 'discord_get_messages',
  discord_get_server: 'discord_get_server',
  discord_get_user: 'discord_get_user',
} as const;

const CHANNEL_OPS = ['discord_send_message', 'discord_get_messages'];

/** Discord: messages, servers and users with a bot token. */
export const discordBlock: BlockConfig = {
  type: 'discord',
  name: 'Discord',
  description: 'Interact with Discord',
  longDescription: 'Connect to Discord to send messages, read channel messages and look up servers and users with a bot token.',
  docsLink: 'https://docs.weft.dev/tools/discord',
  category: 'tools',
  bgColor: '#E0E0E0',
  icon: 'DiscordIcon',
  subBlocks: [
    operationField([['discord_send_message', 'Send Message'], ['discord_get_messages', 'Get Channel Messages'], ['discord_get_server', 'Get Server Information'], ['discord_get_user', 'Get User Information']]),
    secretField('botToken', 'Bot Token', 'Enter Discord bot token'),
    shortInput('serverId', 'Server ID', 'Enter Discord server ID', { condition: when('operation', [...CHANNEL_OPS, 'discord_get_server']) }),
    shortInput('channelId', 'Channel ID', 'Enter Discord channel ID', { condition: when('operation', CHANNEL_OPS) }),
    shortInput('userId', 'User ID', 'Enter Discord user ID', { condition: when('operation', 'discord_get_user') }),
    shortInput('limit', 'Message Limit', 'Number of messages (default: 10, max: 100)', { layout: 'half', min: 1, max: 100, condition: when('operation', 'discord_get_messages') }),
    longInput('content', 'Message Content', 'Enter message content...', { condition: when('operation', 'discord_send_message') }),
  ],
  tools: {
    access: Object.values(DISCORD_TOOLS),
    config: {
      tool: operationTool(DISCORD_TOOLS, (op) => `Invalid Discord operation: ${op}`),
      params: (p) => (p.operation === 'discord_get_messages' ? { ...p, limit: clamp(toInt(p.limit, 10), 1, 100) } : p),
    },
  },
  inputs: {
    operation: { type: 'string', required: true },
    botToken: { type: 'string', required: true },
    serverId: { type: 'string', required: false },
    channelId: { type: 'string', required: false },
    content: { type: 'string', required: false },
    limit: { type: 'number', required: false },
    userId: { type: 'string', required: false },
  },
  outputs: { message: 'string', data: 'any' },
};
