import { createFakeMessaging } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { twilioTools } from './twilio.tools.js';

const tw = useFamily(createFakeMessaging, { twilio: '/twilio' }, twilioTools);
const base = { phoneNumbers: '\n+4915112345678\n+15550001111', message: 'Hi', accountSid: 'AC1', authToken: 'tok', fromNumber: '+15005550006' };

describe('twilio', () => {
  it('twilio_send_sms posts a form with basic auth to the first number', async () => {
    const r = await tw.run('twilio_send_sms', base);
    tw.expectRequest('twilio_send_sms', 'POST', '/twilio/Accounts/AC1/Messages.json', {
      headers: { authorization: `Basic ${Buffer.from('AC1:tok').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      text: 'To=%2B4915112345678&From=%2B15005550006&Body=Hi',
      body: { To: '+4915112345678', From: '+15005550006', Body: 'Hi' },
    });
    expect(r).toEqual({ success: true, output: { success: true, messageId: 'SM123', status: 'queued' } });
  });

  it('twilio_send_sms fails with the SMS message and requires its fields', async () => {
    tw.fake.once('POST', '/twilio/Accounts/:sid/Messages.json', { status: 400, json: { code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 } });
    await tw.expectError('twilio_send_sms', base, "SMS sending failed: The 'To' number is not a valid phone number.");
    await tw.expectError('twilio_send_sms', { ...base, fromNumber: ' ' }, 'From number is required but not provided');
  });
});
