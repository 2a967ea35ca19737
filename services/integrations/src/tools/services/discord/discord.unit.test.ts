import { MESSAGING_FIXTURES, createFakeMessaging } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { DISCORD_DEFAULT_MESSAGE, discordTools } from './discord.tools.js';

const dc = useFamily(createFakeMessaging, { discord: '/discord' }, discordTools);
const bot = { botToken: 'MTIz.bot' };

describe('discord', () => {
  it('discord_send_message posts the content with the bot token', async () => {
    const r = await dc.run('discord_send_message', { ...bot, channelId: 'chan-1', serverId: 'g1', content: 'hello' });
    dc.expectRequest('discord_send_message', 'POST', '/discord/channels/chan-1/messages', { headers: { authorization: 'Bot MTIz.bot', 'content-type': 'application/json' }, body: { content: 'hello' } });
    expect(r).toEqual({ success: true, output: { message: 'Discord message sent successfully', data: MESSAGING_FIXTURES.discordMessage } });
  });

  it('discord_send_message sends the placeholder when empty; errors are prefixed; a token is required', async () => {
    await dc.run('discord_send_message', { ...bot, channelId: 'chan-1', serverId: 'g1', content: ' ' });
    dc.expectRequest('discord_send_message', 'POST', '/discord/channels/chan-1/messages', { body: { content: DISCORD_DEFAULT_MESSAGE } });
    dc.fake.once('POST', '/discord/channels/:id/messages', { status: 403, json: { message: 'Missing Permissions', code: 50013 } });
    await dc.expectError('discord_send_message', { ...bot, channelId: 'c', serverId: 'g', content: 'x' }, 'Discord API error: Missing Permissions');
    await dc.expectError('discord_send_message', { botToken: '', channelId: 'c', serverId: 'g' }, 'Bot token required for this operation');
  });

  it('discord_get_messages clamps the limit to 100 and defaults to 10', async () => {
    const r = await dc.run('discord_get_messages', { ...bot, channelId: 'chan-1', limit: 500 });
    dc.expectRequest('discord_get_messages', 'GET', '/discord/channels/chan-1/messages', { headers: { authorization: 'Bot MTIz.bot' }, query: { limit: '100' } });
    expect(r).toEqual({ success: true, output: { message: 'Retrieved 2 messages from Discord channel', data: { messages: MESSAGING_FIXTURES.discordMessages, channel_id: 'chan-1' } } });
    await dc.run('discord_get_messages', { ...bot, channelId: 'chan-1' });
    dc.expectRequest('discord_get_messages', 'GET', '/discord/channels/chan-1/messages', { query: { limit: '10' } });
    dc.fake.once('GET', '/discord/channels/:id/messages', { status: 404, json: { message: 'Unknown Channel' } });
    await dc.expectError('discord_get_messages', { ...bot, channelId: 'x' }, 'Discord API error: Unknown Channel');
  });

  it('discord_get_server reads the guild', async () => {
    const r = await dc.run('discord_get_server', { ...bot, serverId: 'guild-1' });
    dc.expectRequest('discord_get_server', 'GET', '/discord/guilds/guild-1', { headers: { authorization: 'Bot MTIz.bot' } });
    expect(r).toEqual({ success: true, output: { message: 'Retrieved information for Discord server: Weft', data: MESSAGING_FIXTURES.discordGuild } });
    dc.fake.once('GET', '/discord/guilds/:id', { status: 401, json: { message: '401: Unauthorized' } });
    await dc.expectError('discord_get_server', { ...bot, serverId: 'g' }, 'Discord API error: 401: Unauthorized');
  });

  it('discord_get_user reads the user', async () => {
    const r = await dc.run('discord_get_user', { ...bot, userId: 'u1' });
    dc.expectRequest('discord_get_user', 'GET', '/discord/users/u1', { headers: { authorization: 'Bot MTIz.bot' } });
    expect(r).toEqual({ success: true, output: { message: 'Retrieved information for Discord user: ada', data: MESSAGING_FIXTURES.discordUser } });
    dc.fake.once('GET', '/discord/users/:id', { status: 404, json: { message: 'Unknown User' } });
    await dc.expectError('discord_get_user', { ...bot, userId: 'x' }, 'Discord API error: Unknown User');
  });
});
