import { clamp, text, toInt } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { apiMessage, call, list, obj, seg, serviceTool, type CallSpec } from '../http.js';

/** The text sent when a message is empty (§7: a fixed placeholder sentence). */
export const DISCORD_DEFAULT_MESSAGE = 'Message sent from Weft';
/** Messages read: default 10, clamped 1-100 (§5). */
export const DISCORD_MESSAGES = { default: 10, min: 1, max: 100 } as const;

async function discord(io: ToolIO, botToken: unknown, path: string, spec: Omit<CallSpec, 'url'> = {}): Promise<unknown> {
  if (text(botToken) === '') throw new ToolError('Bot token required for this operation');
  const res = await call(io, { ...spec, url: `${io.baseUrl('discord')}${path}`, headers: { Authorization: `Bot ${text(botToken)}` } });
  if (!res.ok) throw new ToolError(`Discord API error: ${apiMessage(res)}`, res.status);
  return res.data;
}

/** Discord API v10 tools: send and read channel messages, read a server and a user. */
export const discordTools: ServiceTool[] = [
  serviceTool('discord_send_message', async (p, io) => {
    const content = String(p.content ?? '').trim() === '' ? DISCORD_DEFAULT_MESSAGE : String(p.content);
    const data = await discord(io, p.botToken, `/channels/${seg(text(p.channelId))}/messages`, { method: 'POST', json: { content } });
    return { message: 'Discord message sent successfully', data };
  }),
  serviceTool('discord_get_messages', async (p, io) => {
    const limit = clamp(toInt(p.limit, DISCORD_MESSAGES.default), DISCORD_MESSAGES.min, DISCORD_MESSAGES.max);
    const messages = list(await discord(io, p.botToken, `/channels/${seg(text(p.channelId))}/messages`, { query: { limit } }));
    return { message: `Retrieved ${messages.length} messages from Discord channel`, data: { messages, channel_id: text(p.channelId) } };
  }),
  serviceTool('discord_get_server', async (p, io) => {
    const data = await discord(io, p.botToken, `/guilds/${seg(text(p.serverId))}`);
    return { message: `Retrieved information for Discord server: ${String(obj(data).name)}`, data };
  }),
  serviceTool('discord_get_user', async (p, io) => {
    const data = await discord(io, p.botToken, `/users/${seg(text(p.userId))}`);
    return { message: `Retrieved information for Discord user: ${String(obj(data).username)}`, data };
  }),
];
