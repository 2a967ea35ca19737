import type { ToolConfig } from '../types.js';
import { defineTool, need } from './define.js';

/** Twilio SMS send (form body, basic auth). */
export const twilioTools: ToolConfig[] = [
  defineTool({
    id: 'twilio_send_sms',
    name: 'Twilio SMS',
    description: 'Send text messages to single or multiple recipients using the Twilio API',
    params: {
      phoneNumbers: need('string', 'llm', 'Phone numbers to send the message to, newline separated (only the first is used)'),
      message: need('string', 'llm', 'Message to send'),
      accountSid: need('string', 'user', 'Twilio Account SID'),
      authToken: need('string', 'user', 'Twilio Auth Token'),
      fromNumber: need('string', 'user', 'Twilio phone number to send the message from'),
    },
    request: {
      method: 'POST',
      url: 'https://api.twilio.com/2010-04-01/Accounts/{accountSid}/Messages.json',
      headers: { Authorization: 'Basic {accountSid}:{authToken}', 'Content-Type': 'application/x-www-form-urlencoded' },
    },
  }),
];
