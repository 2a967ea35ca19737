import type { ToolConfig } from '../types.js';
import { defineTool, need } from './define.js';

/** WhatsApp Business text message (graph API v22.0); the leading + of the number is removed. */
export const whatsappTools: ToolConfig[] = [
  defineTool({
    id: 'whatsapp_send_message',
    name: 'WhatsApp',
    description: 'Send WhatsApp messages',
    params: {
      phoneNumber: need('string', 'llm', 'Recipient phone number with country code'),
      message: need('string', 'llm', 'Message content to send'),
      phoneNumberId: need('string', 'user', 'WhatsApp Business Phone Number ID'),
      accessToken: need('string', 'user', 'WhatsApp Business API Access Token'),
    },
    request: {
      method: 'POST',
      url: 'https://graph.facebook.com/v22.0/{phoneNumberId}/messages',
      headers: { Authorization: 'Bearer {accessToken}', 'Content-Type': 'application/json' },
    },
  }),
];
