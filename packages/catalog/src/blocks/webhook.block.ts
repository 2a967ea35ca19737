import type { BlockConfig } from '../types.js';
import { dropdown } from './fields.js';

/** Webhook providers; generic is the default. */
export const WEBHOOK_PROVIDERS = [
  ['slack', 'Slack'], ['gmail', 'Gmail'], ['airtable', 'Airtable'], ['telegram', 'Telegram'], ['generic', 'Generic'],
  ['whatsapp', 'WhatsApp'], ['github', 'GitHub'], ['discord', 'Discord'], ['microsoftteams', 'Microsoft Teams'],
] as const;

/** Webhook trigger: runs the workflow when a service calls its URL. */
export const webhookBlock: BlockConfig = {
  type: 'webhook',
  name: 'Webhook',
  description: 'Trigger workflow execution from external webhooks',
  longDescription:
    'Configure a webhook that starts the workflow when a service sends an event: Slack, Gmail, Airtable, Telegram, WhatsApp, GitHub, Discord, Microsoft Teams or any generic caller.',
  docsLink: 'https://docs.weft.dev/triggers/webhook',
  category: 'triggers',
  bgColor: '#10B981',
  icon: 'WebhookIcon',
  subBlocks: [
    dropdown('webhookProvider', 'Webhook Provider', WEBHOOK_PROVIDERS, { defaultValue: 'generic' }),
    { id: 'webhookConfig', title: 'Webhook Configuration', type: 'webhook-config', layout: 'full' },
  ],
  tools: { access: [] },
  inputs: {},
  // What started the run (a webhook call's {method, headers, query, body}), as the starter gives it.
  outputs: { input: 'json' },
};
