import type { BlockConfig } from '../types.js';
import { longInput, secretField, shortInput } from './fields.js';

/** Twilio SMS: sends a text message. */
export const twilioSmsBlock: BlockConfig = {
  type: 'twilio_sms',
  name: 'Twilio SMS',
  description: 'Send SMS messages',
  longDescription: 'Send text messages to phone numbers using the Twilio API. Numbers are one per line with country code.',
  docsLink: 'https://docs.weft.dev/tools/twilio',
  category: 'tools',
  bgColor: '#F22F46',
  icon: 'TwilioIcon',
  subBlocks: [
    longInput('phoneNumbers', 'Recipient Phone Numbers', 'Enter phone numbers with country code (one per line, e.g., +1234567890)'),
    longInput('message', 'Message', 'e.g. "Hello! This is a test message."'),
    secretField('accountSid', 'Twilio Account SID', 'Your Twilio Account SID'),
    secretField('authToken', 'Auth Token', 'Your Twilio Auth Token', { connectionDroppable: false }),
    shortInput('fromNumber', 'From Twilio Phone Number', 'e.g. +1234567890'),
  ],
  tools: { access: ['twilio_send_sms'] },
  inputs: {
    phoneNumbers: { type: 'string', required: true },
    message: { type: 'string', required: true },
    accountSid: { type: 'string', required: true },
    authToken: { type: 'string', required: true },
    fromNumber: { type: 'string', required: true },
  },
  outputs: { success: 'boolean', messageId: 'any', status: 'any', error: 'any' },
};
