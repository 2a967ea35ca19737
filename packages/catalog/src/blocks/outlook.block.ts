import { clamp, firstText, operationTool, toInt } from '../paramValues.js';
import { SCOPES } from '../tools/scopes.js';
import type { BlockConfig } from '../types.js';
import { credentialField, longInput, operationField, selectorPair, shortInput, when } from './fields.js';

const TOOL_BY_OPERATION = { send_outlook: 'outlook_send', draft_outlook: 'outlook_draft', read_outlook: 'outlook_read' } as const;
const WRITE = when('operation', ['send_outlook', 'draft_outlook']);

/** Outlook read count: default 1, clamped 1..10 (§5). */
export const OUTLOOK_READ = { default: 1, min: 1, max: 10 } as const;

/** Outlook: send, draft and read mail. */
export const outlookBlock: BlockConfig = {
  type: 'outlook',
  name: 'Outlook',
  description: 'Access Outlook',
  longDescription: 'Integrate Outlook to send, draft and read email messages. Reading defaults to the INBOX folder and 1 message, at most 10.',
  docsLink: 'https://docs.weft.dev/tools/outlook',
  category: 'tools',
  bgColor: '#E0E0E0',
  icon: 'OutlookIcon',
  subBlocks: [
    operationField([['send_outlook', 'Send Email'], ['draft_outlook', 'Draft Email'], ['read_outlook', 'Read Email']]),
    credentialField('outlook', 'outlook', 'Microsoft Account', SCOPES.outlook),
    shortInput('to', 'To', 'Recipient email address', { condition: WRITE }),
    shortInput('subject', 'Subject', 'Email subject', { condition: WRITE }),
    longInput('body', 'Body', 'Email content', { condition: WRITE }),
    ...selectorPair(
      { id: 'folder', title: 'Folder', type: 'folder-selector', layout: 'full', provider: 'outlook', serviceId: 'outlook', placeholder: 'Select Outlook folder', defaultValue: 'INBOX', condition: when('operation', 'read_outlook') },
      { id: 'manualFolder', title: 'Folder', placeholder: 'Enter Outlook folder name (e.g., INBOX, SENT, or custom folder)' },
    ),
    shortInput('maxResults', 'Number of Emails', 'Number of emails to retrieve (default: 1, max: 10)', { min: OUTLOOK_READ.min, max: OUTLOOK_READ.max, condition: when('operation', 'read_outlook') }),
  ],
  tools: {
    access: Object.values(TOOL_BY_OPERATION),
    config: {
      tool: operationTool(TOOL_BY_OPERATION, (op) => `Invalid Outlook operation: ${op}`),
      params: ({ manualFolder, ...rest }) => ({
        ...rest,
        // A typed folder wins: the label picker holds its default INBOX from the start, so picked-first would never read it.
        folder: firstText(manualFolder, rest.folder) || 'INBOX',
        maxResults: clamp(toInt(rest.maxResults, OUTLOOK_READ.default), OUTLOOK_READ.min, OUTLOOK_READ.max),
      }),
    },
  },
  inputs: {
    operation: { type: 'string', required: true },
    credential: { type: 'string', required: true },
    to: { type: 'string', required: false },
    subject: { type: 'string', required: false },
    body: { type: 'string', required: false },
    folder: { type: 'string', required: false },
    manualFolder: { type: 'string', required: false },
    maxResults: { type: 'number', required: false },
  },
  outputs: { message: 'string', results: 'json' },
};
