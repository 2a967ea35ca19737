import { firstText, operationTool } from '../paramValues.js';
import { SCOPES } from '../tools/scopes.js';
import type { BlockConfig } from '../types.js';
import { credentialField, longInput, operationField, selectorPair, when } from './fields.js';

const TOOL_BY_OPERATION = {
  read_chat: 'microsoft_teams_read_chat',
  write_chat: 'microsoft_teams_write_chat',
  read_channel: 'microsoft_teams_read_channel',
  write_channel: 'microsoft_teams_write_channel',
} as const;

const CHAT = when('operation', ['read_chat', 'write_chat']);
const CHANNEL = when('operation', ['read_channel', 'write_channel']);

/** Microsoft Teams: read and write chat and channel messages. */
export const microsoftTeamsBlock: BlockConfig = {
  type: 'microsoft_teams',
  name: 'Microsoft Teams',
  description: 'Read, write, and create messages',
  longDescription: 'Integrate Microsoft Teams to read the latest 50 messages of a chat or channel and to post messages.',
  docsLink: 'https://docs.weft.dev/tools/microsoft_teams',
  category: 'tools',
  bgColor: '#E0E0E0',
  icon: 'MicrosoftTeamsIcon',
  subBlocks: [
    operationField([['read_chat', 'Read Chat Messages'], ['write_chat', 'Write Chat Message'], ['read_channel', 'Read Channel Messages'], ['write_channel', 'Write Channel Message']]),
    credentialField('microsoft-teams', 'microsoft-teams', 'Microsoft Account', SCOPES.microsoftTeams),
    ...selectorPair(
      { id: 'teamId', title: 'Select Team', type: 'file-selector', layout: 'full', provider: 'microsoft-teams', serviceId: 'microsoft-teams', placeholder: 'Select a team', condition: CHANNEL },
      { id: 'manualTeamId', title: 'Team ID', placeholder: 'Enter team ID' },
    ),
    ...selectorPair(
      { id: 'chatId', title: 'Select Chat', type: 'file-selector', layout: 'full', provider: 'microsoft-teams', serviceId: 'microsoft-teams', placeholder: 'Select a chat', condition: CHAT },
      { id: 'manualChatId', title: 'Chat ID', placeholder: 'Enter chat ID' },
    ),
    ...selectorPair(
      { id: 'channelId', title: 'Select Channel', type: 'channel-selector', layout: 'full', provider: 'microsoft-teams', serviceId: 'microsoft-teams', placeholder: 'Select a channel', dependsOn: ['teamId', 'manualTeamId'], condition: CHANNEL },
      { id: 'manualChannelId', title: 'Channel ID', placeholder: 'Enter channel ID' },
    ),
    longInput('content', 'Message', 'Enter message content', { condition: when('operation', ['write_chat', 'write_channel']) }),
  ],
  tools: {
    access: Object.values(TOOL_BY_OPERATION),
    config: {
      tool: operationTool(TOOL_BY_OPERATION, (op) => `Invalid Microsoft Teams operation: ${op}`),
      params: ({ manualTeamId, manualChatId, manualChannelId, ...rest }) => ({
        ...rest,
        teamId: firstText(rest.teamId, manualTeamId),
        chatId: firstText(rest.chatId, manualChatId),
        channelId: firstText(rest.channelId, manualChannelId),
      }),
    },
  },
  inputs: {
    operation: { type: 'string', required: true },
    credential: { type: 'string', required: true },
    teamId: { type: 'string', required: false },
    chatId: { type: 'string', required: false },
    channelId: { type: 'string', required: false },
    content: { type: 'string', required: false },
  },
  outputs: { content: 'string', metadata: 'json', updatedContent: 'boolean' },
};
