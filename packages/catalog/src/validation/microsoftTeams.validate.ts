import { firstText, isBlank } from '../paramValues.js';

/** Teams: chat operations need a chat id; channel operations a team and a channel id; writes need content. */
export function validateMicrosoftTeams(params: Record<string, unknown>): string | undefined {
  const op = params.operation;
  if (op === 'read_chat' || op === 'write_chat') {
    if (firstText(params.chatId, params.manualChatId) === '') return 'Chat ID is required. Please select a chat or enter a chat ID manually.';
  }
  if (op === 'read_channel' || op === 'write_channel') {
    if (firstText(params.teamId, params.manualTeamId) === '') return 'Team ID is required. Please select a team or enter a team ID manually.';
    if (firstText(params.channelId, params.manualChannelId) === '') {
      return 'Channel ID is required. Please select a channel or enter a channel ID manually.';
    }
  }
  if ((op === 'write_chat' || op === 'write_channel') && isBlank(params.content)) return 'Content is required';
  return undefined;
}
