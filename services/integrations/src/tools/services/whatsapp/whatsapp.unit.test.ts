import { createFakeMessaging } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { whatsappTools } from './whatsapp.tools.js';

const wa = useFamily(createFakeMessaging, { whatsapp: '/whatsapp' }, whatsappTools);
const base = { phoneNumber: '+4915112345678', message: 'Hi there', phoneNumberId: '10987', accessToken: 'EAAG' };

describe('whatsapp', () => {
  it('whatsapp_send_message posts a text message without the leading +', async () => {
    const r = await wa.run('whatsapp_send_message', base);
    wa.expectRequest('whatsapp_send_message', 'POST', '/whatsapp/10987/messages', {
      headers: { authorization: 'Bearer EAAG', 'content-type': 'application/json' },
      body: { messaging_product: 'whatsapp', recipient_type: 'individual', to: '4915112345678', type: 'text', text: { body: 'Hi there' } },
    });
    expect(r).toEqual({ success: true, output: { success: true, messageId: 'wamid.HBgM' } });
  });

  it('whatsapp_send_message fails with its prefix, and requires its fields', async () => {
    wa.fake.once('POST', '/whatsapp/:phone/messages', { status: 400, json: { error: { message: '(#131030) Recipient phone number not in allowed list', code: 131030 } } });
    await wa.expectError('whatsapp_send_message', base, 'WhatsApp message failed: (#131030) Recipient phone number not in allowed list');
    await wa.expectError('whatsapp_send_message', { ...base, phoneNumberId: ' ' }, 'Phone number ID is required');
  });
});
