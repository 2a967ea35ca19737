import type { ToolConfig } from '../types.js';
import { may, need, toolFamily } from './define.js';

const API = 'https://discord.com/api/v10';
const botToken = need('string', 'user', 'The bot token for authentication');

const tool = toolFamily({ baseUrl: API, headers: { Authorization: 'Bot {botToken}', 'Content-Type': 'application/json' }, common: { botToken } });

/** Discord API v10 tools. */
export const discordTools: ToolConfig[] = [
  tool('discord_send_message', 'Discord Send Message', 'Send a message to a Discord channel', 'POST', '/channels/{channelId}/messages', {
    channelId: need('string', 'user', 'The Discord channel ID to send the message to'),
    content: may('string', 'llm', 'The text content of the message (a fixed placeholder sentence when empty)'),
    serverId: need('string', 'user', 'The Discord server ID (guild ID)'),
  }),
  tool('discord_get_messages', 'Discord Get Messages', 'Retrieve messages from a Discord channel', 'GET', '/channels/{channelId}/messages?limit={limit}', {
    channelId: need('string', 'user', 'The Discord channel ID to retrieve messages from'),
    limit: may('number', 'user', 'Maximum number of messages to retrieve (default: 10, max: 100)', 10),
  }),
  tool('discord_get_server', 'Discord Get Server', 'Retrieve information about a Discord server (guild)', 'GET', '/guilds/{serverId}', {
    serverId: need('string', 'user', 'The Discord server ID (guild ID)'),
  }),
  tool('discord_get_user', 'Discord Get User', 'Retrieve information about a Discord user', 'GET', '/users/{userId}', {
    userId: need('string', 'user', 'The Discord user ID'),
  }),
];
