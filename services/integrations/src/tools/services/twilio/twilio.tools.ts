import { text, validateTwilioSms } from '@weft/catalog';
import { ToolError, type ServiceTool } from '../../serviceTool.js';
import { apiMessage, call, obj, seg, serviceTool } from '../http.js';

/** Twilio SMS: a form body with basic auth; only the first of the newline-separated numbers is used (§5). */
export const twilioTools: ServiceTool[] = [
  serviceTool('twilio_send_sms', async (p, io) => {
    const invalid = validateTwilioSms(p);
    if (invalid) throw new ToolError(invalid);
    const to = String(p.phoneNumbers).split('\n').map((n) => n.trim()).find((n) => n !== '') ?? '';
    const sid = text(p.accountSid);
    const res = await call(io, {
      method: 'POST',
      url: `${io.baseUrl('twilio')}/Accounts/${seg(sid)}/Messages.json`,
      headers: { Authorization: `Basic ${Buffer.from(`${sid}:${text(p.authToken)}`).toString('base64')}` },
      form: { To: to, From: text(p.fromNumber), Body: String(p.message) },
    });
    if (!res.ok) throw new ToolError(`SMS sending failed: ${apiMessage(res)}`, res.status);
    const d = obj(res.data);
    return { success: true, messageId: d.sid, status: d.status };
  }),
];
