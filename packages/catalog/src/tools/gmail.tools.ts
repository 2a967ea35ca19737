import { text } from '../paramValues.js';
import type { ToolConfig } from '../types.js';
import { accessToken, bearer, may, need, oauth, toolFamily } from './define.js';
import { SCOPES } from './scopes.js';

const SYSTEM_FOLDERS = ['INBOX', 'SENT', 'DRAFT', 'TRASH', 'SPAM'];

/** The characters Gmail's search form of a label writes as a hyphen, each one as one hyphen (with spaces). */
const LABEL_HYPHENATED = /["&()/{}|]/;

/**
 * The Gmail search filter for a folder: system folders use in:, others label:, default in:inbox (§5).
 * A label name with only spaces is quoted (`label:"My Label"`), else Gmail reads only its first word
 * as the label; one holding `"`, `&`, `(`, `)`, `/`, `{`, `}` or `|` takes Gmail's search form, where
 * each of those and each space is a hyphen (`Say "hi" (now)` → `label:Say--hi---now-`).
 */
export function gmailFolderQuery(folder: unknown): string {
  const name = text(folder);
  if (name === '') return 'in:inbox';
  if (SYSTEM_FOLDERS.includes(name.toUpperCase())) return `in:${name.toLowerCase()}`;
  if (LABEL_HYPHENATED.test(name)) return `label:${name.replace(/[\s"&()/{}|]/g, '-')}`;
  return /\s/.test(name) ? `label:"${name}"` : `label:${name}`;
}

const tool = toolFamily({
  baseUrl: 'https://gmail.googleapis.com/gmail/v1/users/me',
  headers: bearer(),
  common: { accessToken: accessToken('Gmail') },
  oauth: oauth('google-email', SCOPES.gmail),
});

const mail = {
  to: need('string', 'llm', 'Recipient email address'),
  subject: need('string', 'llm', 'Email subject'),
  body: need('string', 'llm', 'Email body content'),
};

/** Gmail send, draft, read, search. */
export const gmailTools: ToolConfig[] = [
  tool('gmail_send', 'Gmail Send', 'Send emails using Gmail', 'POST', '/messages/send', mail),
  tool('gmail_draft', 'Gmail Draft', 'Draft emails using Gmail', 'POST', '/drafts', mail),
  tool('gmail_read', 'Gmail Read', 'Read emails from Gmail', 'GET', '/messages?q={query}&maxResults={maxResults}', {
    messageId: may('string', 'llm', 'ID of the message to read'),
    folder: may('string', 'user', 'Folder/label to read emails from', 'INBOX'),
    unreadOnly: may('boolean', 'user', 'Only retrieve unread messages', false),
    maxResults: may('number', 'user', 'Maximum number of messages to retrieve (default: 1, max: 10)', 1),
  }),
  tool('gmail_search', 'Gmail Search', 'Search emails in Gmail', 'GET', '/messages?q={query}&maxResults={maxResults}', {
    query: need('string', 'llm', 'Search query for emails'),
    maxResults: may('number', 'user', 'Maximum number of results to return', 10),
  }),
];
