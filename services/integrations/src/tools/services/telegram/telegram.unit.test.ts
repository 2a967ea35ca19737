import { MESSAGING_FIXTURES, createFakeMessaging } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { telegramTools } from './telegram.tools.js';

const tg = useFamily(createFakeMessaging, { telegram: '/telegram' }, telegramTools);

describe('telegram', () => {
  it('telegram_message sends HTML text to the chat', async () => {
    const r = await tg.run('telegram_message', { botToken: '123:ABC', chatId: '-100123', text: '<b>Hello</b>' });
    tg.expectRequest('telegram_message', 'POST', '/telegram/bot123:ABC/sendMessage', {
      headers: { 'content-type': 'application/json' },
      body: { chat_id: '-100123', text: '<b>Hello</b>', parse_mode: 'HTML' },
    });
    expect(r).toEqual({ success: true, output: { ok: true, result: MESSAGING_FIXTURES.telegram.result } });
  });

  it('telegram_message fails with the Bot API description', async () => {
    tg.fake.once('POST', '/telegram/:bot/sendMessage', { status: 400, json: { ok: false, error_code: 400, description: 'Bad Request: chat not found' } });
    await tg.expectError('telegram_message', { botToken: '1:A', chatId: 'x', text: 'y' }, 'Telegram API error: Bad Request: chat not found');
  });
});
