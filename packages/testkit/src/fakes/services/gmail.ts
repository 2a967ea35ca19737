import type { FakeServer } from '../server.js';
import { createServiceFake } from './kit.js';

const b64url = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

/** Recorded Gmail API answers (users/me). */
export const GMAIL_FIXTURES = {
  sent: { id: 'msg-sent-1', threadId: 'thr-1', labelIds: ['SENT'] },
  draft: { id: 'draft-1', message: { id: 'msg-draft-1', threadId: 'thr-2', labelIds: ['DRAFT'] } },
  labels: {
    labels: [
      { id: 'INBOX', name: 'INBOX', type: 'system' },
      { id: 'SENT', name: 'SENT', type: 'system' },
      { id: 'Label_1', name: 'Receipts', type: 'user' },
      { id: 'Label_2', name: 'Receipts/2025', type: 'user' },
    ],
  },
  list: { messages: [{ id: 'm1', threadId: 't1' }, { id: 'm2', threadId: 't2' }], resultSizeEstimate: 2 },
  message: (id: string) => ({
    id,
    threadId: `thread-${id}`,
    labelIds: ['INBOX', 'UNREAD'],
    snippet: `Snippet of ${id}`,
    payload: {
      mimeType: 'multipart/alternative',
      headers: [
        { name: 'From', value: 'Ada <ada@acme.example.invalid>' },
        { name: 'To', value: 'me@acme.example.invalid' },
        { name: 'Subject', value: `Subject ${id}` },
        { name: 'Date', value: 'Mon, 5 May 2025 10:00:00 +0000' },
      ],
      parts: [
        { mimeType: 'text/plain', body: { data: b64url(`Body of ${id}`) } },
        { mimeType: 'text/html', body: { data: b64url(`<p>Body of ${id}</p>`) } },
      ],
    },
  }),
};

/** A fake Gmail API under /gmail/v1/users/me. */
export function createFakeGmail(): Promise<FakeServer> {
  return createServiceFake([
    ['POST', '/gmail/v1/users/me/messages/send', { json: GMAIL_FIXTURES.sent }],
    ['POST', '/gmail/v1/users/me/drafts', { json: GMAIL_FIXTURES.draft }],
    ['GET', '/gmail/v1/users/me/messages', { json: GMAIL_FIXTURES.list }],
    ['GET', '/gmail/v1/users/me/labels', { json: GMAIL_FIXTURES.labels }],
    ['GET', '/gmail/v1/users/me/messages/:id', (req) => ({ json: GMAIL_FIXTURES.message(req.path.split('/').pop() ?? '') })],
  ]);
}
