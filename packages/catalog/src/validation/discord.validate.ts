import { isBlank } from '../paramValues.js';

const CHANNEL_OPERATIONS = ['discord_send_message', 'discord_get_messages'];

/** Discord: a bot token; server and channel ids for messages; a server id for server info. */
export function validateDiscord(params: Record<string, unknown>): string | undefined {
  if (isBlank(params.botToken)) return 'Bot token required for this operation';
  const op = params.operation;
  const needsServer = typeof op === 'string' && (CHANNEL_OPERATIONS.includes(op) || op === 'discord_get_server');
  if (needsServer && isBlank(params.serverId)) return 'Server ID is required';
  if (typeof op === 'string' && CHANNEL_OPERATIONS.includes(op) && isBlank(params.channelId)) return 'Channel ID is required';
  if (op === 'discord_get_user' && isBlank(params.userId)) return 'User ID is required';
  return undefined;
}
