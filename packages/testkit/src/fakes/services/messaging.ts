import type { FakeServer } from '../server.js';
import { createServiceFake } from './kit.js';

/** Recorded answers of Discord (v10), Telegram Bot API, WhatsApp Cloud API (v22.0) and Twilio. */
export const MESSAGING_FIXTURES = {
  discordMessage: { id: 'msg-1', channel_id: 'chan-1', content: 'hello', author: { id: 'bot-1', username: 'weft' }, timestamp: '2025-05-01T10:00:00.000000+00:00' },
  discordMessages: [
    { id: 'msg-2', channel_id: 'chan-1', content: 'second', author: { id: 'u1', username: 'ada' } },
    { id: 'msg-1', channel_id: 'chan-1', content: 'first', author: { id: 'u2', username: 'bob' } },
  ],
  discordGuild: { id: 'guild-1', name: 'Weft', icon: null, description: 'Builders', owner_id: 'u1' },
  discordUser: { id: 'u1', username: 'ada', discriminator: '0', avatar: null, global_name: 'Ada' },
  telegram: { ok: true, result: { message_id: 55, chat: { id: -100123, type: 'channel' }, date: 1714557600, text: 'Hello' } },
  whatsapp: { messaging_product: 'whatsapp', contacts: [{ input: '4915112345678', wa_id: '4915112345678' }], messages: [{ id: 'wamid.HBgM' }] },
  twilio: { sid: 'SM123', status: 'queued', to: '+4915112345678', from: '+15005550006', body: 'Hi' },
};

/** A fake of the messaging APIs: Discord under /discord, Telegram under /telegram, WhatsApp under /whatsapp, Twilio under /twilio. */
export function createFakeMessaging(): Promise<FakeServer> {
  const f = MESSAGING_FIXTURES;
  return createServiceFake([
    ['POST', '/discord/channels/:id/messages', { json: f.discordMessage }],
    ['GET', '/discord/channels/:id/messages', { json: f.discordMessages }],
    ['GET', '/discord/guilds/:id', { json: f.discordGuild }],
    ['GET', '/discord/users/:id', { json: f.discordUser }],
    ['POST', '/telegram/:bot/sendMessage', { json: f.telegram }],
    ['POST', '/whatsapp/:phone/messages', { json: f.whatsapp }],
    ['POST', '/twilio/Accounts/:sid/Messages.json', { status: 201, json: f.twilio }],
  ]);
}
