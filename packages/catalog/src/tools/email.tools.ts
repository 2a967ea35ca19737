import type { ToolConfig } from '../types.js';
import { defineTool, need } from './define.js';

/** SMTP send through the internal email route. */
export const emailTools: ToolConfig[] = [
  defineTool({
    id: 'email_send',
    name: 'Send Email',
    description: 'Send an email through an SMTP server',
    params: {
      host: need('string', 'user', 'SMTP host'),
      port: need('number', 'user', 'SMTP port'),
      username: need('string', 'user', 'SMTP username'),
      password: need('string', 'user', 'SMTP password'),
      to: need('string', 'llm', 'Recipient email address'),
      subject: need('string', 'llm', 'Email subject'),
      body: need('string', 'llm', 'Email body'),
    },
    request: { method: 'POST', url: '/api/tools/email/send' },
  }),
];
