import { firstText, isBlank } from '../paramValues.js';

/** Slack: a channel; the credential of the chosen auth method; text to send, or title and content for a canvas. */
export function validateSlack(params: Record<string, unknown>): string | undefined {
  if (firstText(params.channel, params.manualChannel) === '') {
    return 'Channel is required. Please select a channel or enter a channel ID manually.';
  }
  if (params.authMethod === 'bot_token') {
    if (isBlank(params.botToken)) return 'Bot token is required when using bot token authentication';
  } else if (isBlank(params.credential)) {
    return 'Slack account credential is required when using Sim Studio Bot';
  }
  if (params.operation === 'send' && isBlank(params.text)) return 'Message text is required for send operation';
  if (params.operation === 'canvas' && (isBlank(params.title) || isBlank(params.content))) {
    return 'Title and content are required for canvas operation';
  }
  return undefined;
}
