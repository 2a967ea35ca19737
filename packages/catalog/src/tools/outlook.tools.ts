import type { ToolConfig } from '../types.js';
import { accessToken, bearer, may, need, oauth, toolFamily } from './define.js';
import { SCOPES } from './scopes.js';

const tool = toolFamily({
  baseUrl: 'https://graph.microsoft.com/v1.0/me',
  headers: bearer(),
  common: { accessToken: accessToken('Outlook') },
  oauth: oauth('outlook', SCOPES.outlook),
});

const mail = {
  to: need('string', 'llm', 'Recipient email address'),
  subject: need('string', 'llm', 'Email subject'),
  body: need('string', 'llm', 'Email body content'),
};

/** Outlook mail tools over Microsoft Graph. */
export const outlookTools: ToolConfig[] = [
  tool('outlook_send', 'Outlook Send', 'Send emails using Outlook', 'POST', '/sendMail', mail),
  tool('outlook_draft', 'Outlook Draft', 'Draft emails using Outlook', 'POST', '/messages', mail),
  tool('outlook_read', 'Outlook Read', 'Read emails from Outlook', 'GET', '/mailFolders/{folder}/messages?$top={maxResults}', {
    folder: may('string', 'user', 'Folder to read emails from: a folder id, INBOX, SENT, DRAFTS, TRASH, SPAM, ARCHIVE, OUTBOX (any case) or a top-level folder name (default: Inbox)', 'INBOX'),
    maxResults: may('number', 'user', 'Maximum number of emails to retrieve (default: 1, max: 10)', 1),
  }),
];
