import type { ToolConfig } from '../types.js';
import { accessToken, bearer, need, oauth, toolFamily } from './define.js';
import { SCOPES } from './scopes.js';

/** Teams reads fetch the newest 50 messages (§9). */
export const TEAMS_FETCH_LIMIT = 50;

const tool = toolFamily({
  baseUrl: 'https://graph.microsoft.com/v1.0',
  headers: bearer(),
  common: { accessToken: accessToken('Microsoft Teams') },
  oauth: oauth('microsoft-teams', SCOPES.microsoftTeams),
});

const chatId = need('string', 'user', 'The ID of the chat');
const teamId = need('string', 'user', 'The ID of the team');
const channelId = need('string', 'user', 'The ID of the channel');
const content = need('string', 'llm', 'The content to write to the message');

/** Teams chat and channel message tools. */
export const microsoftTeamsTools: ToolConfig[] = [
  tool('microsoft_teams_read_chat', 'Read Microsoft Teams Chat', 'Read content from a Microsoft Teams chat', 'GET', `/chats/{chatId}/messages?$top=${TEAMS_FETCH_LIMIT}&$orderby=createdDateTime desc`, { chatId }),
  tool('microsoft_teams_write_chat', 'Write to Microsoft Teams Chat', 'Write or update content in a Microsoft Teams chat', 'POST', '/chats/{chatId}/messages', { chatId, content }),
  tool('microsoft_teams_read_channel', 'Read Microsoft Teams Channel', 'Read content from a Microsoft Teams channel', 'GET', `/teams/{teamId}/channels/{channelId}/messages?$top=${TEAMS_FETCH_LIMIT}`, { teamId, channelId }),
  tool('microsoft_teams_write_channel', 'Write to Microsoft Teams Channel', 'Write or send a message to a Microsoft Teams channel', 'POST', '/teams/{teamId}/channels/{channelId}/messages', { teamId, channelId, content }),
];
