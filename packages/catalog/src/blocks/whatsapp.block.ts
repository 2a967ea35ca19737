import type { BlockConfig } from '../types.js';
import { longInput, secretField, shortInput } from './fields.js';

/** WhatsApp: sends a message with the WhatsApp Business API. */
export const whatsappBlock: BlockConfig = {
  type: 'whatsapp',
  name: 'WhatsApp',
  description: 'Send WhatsApp messages',
  longDescription: 'Send messages to WhatsApp users using the WhatsApp Business API (graph API v22.0).',
  docsLink: 'https://docs.weft.dev/tools/whatsapp',
  category: 'tools',
  bgColor: '#25D366',
  icon: 'WhatsAppIcon',
  subBlocks: [
    shortInput('phoneNumber', 'Recipient Phone Number', 'Enter phone number with country code (e.g., +1234567890)'),
    longInput('message', 'Message', 'Enter your message'),
    shortInput('phoneNumberId', 'WhatsApp Phone Number ID', 'Your WhatsApp Business Phone Number ID'),
    secretField('accessToken', 'Access Token', 'Your WhatsApp Business API Access Token'),
  ],
  tools: { access: ['whatsapp_send_message'] },
  inputs: {
    phoneNumber: { type: 'string', required: true },
    message: { type: 'string', required: true },
    phoneNumberId: { type: 'string', required: true },
    accessToken: { type: 'string', required: true },
  },
  outputs: { success: 'boolean', messageId: 'any', error: 'any' },
};
