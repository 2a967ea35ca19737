import { clamp, firstText, operationTool, toInt } from '../paramValues.js';
import { SCOPES } from '../tools/scopes.js';
import type { BlockConfig } from '../types.js';
import { credentialField, longInput, operationField, selectorPair, shortInput, when } from './fields.js';

const TOOL_BY_OPERATION = { send_gmail: 'gmail_send', draft_gmail: 'gmail_draft', read_gmail: 'gmail_read', search_gmail: 'gmail_search' } as const;
const WRITE = when('operation', ['send_gmail', 'draft_gmail']);

/** Gmail: send, draft, read and search mail. */
export const gmailBlock: BlockConfig = {
  type: 'gmail',
  name: 'Gmail',
  description: 'Send Gmail',
  longDescription: 'Integrate Gmail to send, draft, read and search email messages. Reading defaults to the INBOX folder and at most 10 messages.',
  docsLink: 'https://docs.weft.dev/tools/gmail',
  category: 'tools',
  bgColor: '#E0E0E0',
  icon: 'GmailIcon',
  subBlocks: [
    operationField([['send_gmail', 'Send Email'], ['read_gmail', 'Read Email'], ['draft_gmail', 'Draft Email'], ['search_gmail', 'Search Email']]),
    credentialField('google-email', 'gmail', 'Gmail Account', SCOPES.gmail),
    shortInput('to', 'To', 'Recipient email address', { condition: WRITE }),
    shortInput('subject', 'Subject', 'Email subject', { condition: WRITE }),
    longInput('body', 'Body', 'Email content', { condition: WRITE }),
    ...selectorPair(
      { id: 'folder', title: 'Label', type: 'folder-selector', layout: 'full', provider: 'google-email', serviceId: 'gmail', placeholder: 'Select Gmail label/folder', defaultValue: 'INBOX', condition: when('operation', 'read_gmail') },
      { id: 'manualFolder', title: 'Label/Folder', placeholder: 'Enter Gmail label name (e.g., INBOX, SENT, or custom label)' },
    ),
    { id: 'unreadOnly', title: 'Unread Only', type: 'switch', layout: 'full', condition: when('operation', 'read_gmail') },
    shortInput('maxResults', 'Number of Emails', 'Number of emails to retrieve (default: 1, max: 10)', { condition: when('operation', ['read_gmail', 'search_gmail']) }),
    shortInput('messageId', 'Message ID', 'Enter message ID to read (optional)', { condition: when('operation', 'read_gmail') }),
    shortInput('query', 'Search Query', 'Enter search terms', { condition: when('operation', 'search_gmail') }),
  ],
  tools: {
    access: Object.values(TOOL_BY_OPERATION),
    config: {
      tool: operationTool(TOOL_BY_OPERATION, (op) => `Invalid Gmail operation: ${op}`),
      params: ({ manualFolder, ...rest }) => ({
        ...rest,
        // A typed folder wins: the label picker holds its default INBOX from the start, so picked-first would never read it.
        folder: firstText(manualFolder, rest.folder) || 'INBOX',
        maxResults: clamp(toInt(rest.maxResults, 1), 1, 10),
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
    messageId: { type: 'string', required: false },
    unreadOnly: { type: 'boolean', required: false },
    query: { type: 'string', required: false },
    maxResults: { type: 'number', required: false },
  },
  outputs: { content: 'string', metadata: 'json' },
};
