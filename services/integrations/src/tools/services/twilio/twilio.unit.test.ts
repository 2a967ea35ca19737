import { createFakeMessaging } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { twilioTools } from './twilio.tools.js';

const tw = useFamily(createFakeMessaging, { twilio: '/twilio' }, twilioTools);
const base = { phoneNumbers: '\n+4915112345678\n+15550001111', message: 'Hi', accountSid: 'AC1', authToken: 'tok', fromNumber: '+15005550006' };

describe('twilio', () => {
  it('twilio_send_sms posts a form with basic auth to the first number', async () => {
    const r = await tw.run('twilio_send_sms', base);
    const req = tw.only('POST', '/twilio/Accounts/AC1/Messages.json');
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('AC1:tok').toString('base64')}`);
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req.body).toEqual({ To: '+4915112345678', From: '+15005550006', Body: 'Hi' });
    expect(r).toEqual({ success: true, output: { success: true, messageId: 'SM123', status: 'queued' } });
  });

  it('twilio_send_sms fails with the SMS message and requires its fields', async () => {
    tw.fake.once('POST', '/twilio/Accounts/:sid/Messages.json', { status: 400, json: { code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 } });
    expect(await tw.run('twilio_send_sms', base)).toMatchObject({ success: false, error: "SMS sending failed: The 'To' number is not a valid phone number." });
    expect(await tw.run('twilio_send_sms', { ...base, fromNumber: ' ' })).toMatchObject({ success: false, error: 'From number is required but not provided' });
  });
});
