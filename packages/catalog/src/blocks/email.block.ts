import type { BlockConfig } from '../types.js';
import { dropdown, longInput, secretField, shortInput, when } from './fields.js';

/** SMTP presets; Gmail, Outlook and Yahoo use the fixed port 587. */
export const SMTP_PRESETS = {
  gmail: { host: 'smtp.gmail.com', port: 587 },
  outlook: { host: 'smtp.office365.com', port: 587 },
  yahoo: { host: 'smtp.mail.yahoo.com', port: 587 },
} as const;

/** Fills host and port from a preset; custom keeps the typed host and port. */
function emailParams(p: Record<string, unknown>): Record<string, unknown> {
  const { provider, ...rest } = p;
  if (provider === 'gmail' || provider === 'outlook' || provider === 'yahoo') return { ...rest, ...SMTP_PRESETS[provider] };
  return rest;
}

/** Email: sends a message over SMTP. */
export const emailBlock: BlockConfig = {
  type: 'email',
  name: 'Email',
  description: 'Send an email over SMTP',
  longDescription: 'Send an email through any SMTP server. Gmail, Outlook and Yahoo presets use port 587; choose custom to enter a host and port.',
  docsLink: 'https://docs.weft.dev/tools/email',
  category: 'tools',
  bgColor: '#4A90D9',
  icon: 'MailIcon',
  subBlocks: [
    dropdown('provider', 'Provider', [['gmail', 'Gmail'], ['outlook', 'Outlook'], ['yahoo', 'Yahoo'], ['custom', 'Custom SMTP']]),
    shortInput('host', 'SMTP Host', 'smtp.example.com', { layout: 'half', condition: when('provider', 'custom') }),
    shortInput('port', 'Port', '587', { layout: 'half', condition: when('provider', 'custom') }),
    shortInput('username', 'Username', 'Enter SMTP username', { layout: 'half' }),
    secretField('password', 'Password', 'Enter SMTP password', { layout: 'half' }),
    shortInput('to', 'To', 'Recipient email address'),
    shortInput('subject', 'Subject', 'Email subject'),
    longInput('body', 'Body', 'Email content'),
  ],
  tools: { access: ['email_send'], config: { tool: () => 'email_send', params: emailParams } },
  inputs: {
    host: { type: 'string', required: false },
    port: { type: 'number', required: false },
    username: { type: 'string', required: true },
    password: { type: 'string', required: true },
    to: { type: 'string', required: true },
    subject: { type: 'string', required: true },
    body: { type: 'string', required: true },
  },
  outputs: { success: 'boolean', messageId: 'string', sentAt: 'string' },
};
