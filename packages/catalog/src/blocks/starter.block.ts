import type { BlockConfig } from '../types.js';
import { dropdown, when } from './fields.js';
import { scheduleSubBlocks } from './schedule.fields.js';

/** Starter: where every workflow begins; run manually, by chat, by webhook or on a schedule. */
export const starterBlock: BlockConfig = {
  type: 'starter',
  name: 'Starter',
  description: 'Start workflow',
  longDescription:
    'Initiate your workflow manually, from a chat, from a webhook or on a schedule. In manual mode an input format describes the fields an API call may send.',
  docsLink: 'https://docs.weft.dev/blocks/starter',
  category: 'blocks',
  bgColor: '#2FB3FF',
  icon: 'StartIcon',
  subBlocks: [
    dropdown('startWorkflow', 'Start Workflow', [['manual', 'Run manually'], ['chat', 'Chat'], ['webhook', 'Webhook'], ['schedule', 'Schedule']], { defaultValue: 'manual' }),
    { id: 'inputFormat', title: 'Input Format (for API calls)', type: 'input-format', layout: 'full', mode: 'advanced', condition: when('startWorkflow', 'manual') },
    // Strings (spec 000 §2), drawn as the webhook block's path with its URL, and its secret with generate and copy.
    { id: 'webhookPath', title: 'Webhook Path', type: 'webhook-path', layout: 'full', placeholder: 'Enter a webhook path', condition: when('startWorkflow', 'webhook') },
    { id: 'webhookSecret', title: 'Webhook Secret', type: 'webhook-secret', layout: 'full', placeholder: 'None: calls are not checked', password: true, condition: when('startWorkflow', 'webhook') },
    // Not in the spec's starter list: how a webhook call is answered, as a webhook block's responseMode.
    dropdown('webhookResponseMode', 'Webhook Answer', [['immediate', '200 as soon as the run starts'], ['response', "The Response block's status, headers and body"]], { condition: when('startWorkflow', 'webhook') }),
    ...scheduleSubBlocks(when('startWorkflow', 'schedule')),
    // Not in the spec's starter list: the schedule block's status (the cron the server makes, the next runs), under the fields.
    { id: 'scheduleConfig', title: 'Schedule Status', type: 'schedule-config', layout: 'full', condition: when('startWorkflow', 'schedule') },
  ],
  tools: { access: [] },
  inputs: { input: { type: 'json', required: false } },
  outputs: { input: 'any' },
};
