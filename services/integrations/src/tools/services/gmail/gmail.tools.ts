import { OUTLOOK_READ, clamp, gmailFolderQuery, text, toInt } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { apiMessage, bearer, call, list, obj, RATE_LIMITED, seg, serviceTool, type ApiResponse, type CallSpec, type Obj } from '../http.js';
import { bodyText, header, rawMessage } from './mime.js';

/** Gmail read: default 1, at most 10 messages (§5; the same bounds as Outlook's). */
const READ = OUTLOOK_READ;

function failure(res: ApiResponse): ToolError {
  const message = apiMessage(res);
  if (res.status === 401) return new ToolError('Invalid or expired access token. Please reauthenticate.', 401);
  if (res.status === 429 || (res.status === 403 && /quota|rate/i.test(message))) return new ToolError('Gmail API quota exceeded. Please try again later.', res.status);
  return new ToolError(message, res.status);
}

async function gmail(io: ToolIO, p: Obj, path: string, spec: Omit<CallSpec, 'url'> = {}): Promise<Obj> {
  const res = await call(io, { ...spec, url: `${io.baseUrl('gmail')}${path}`, headers: bearer(p.accessToken), answerStatuses: RATE_LIMITED });
  if (!res.ok) throw failure(res);
  return obj(res.data);
}

/** A message's summary fields from a `format=full` answer. */
function summary(m: Obj) {
  return {
    id: m.id,
    threadId: m.threadId,
    labelIds: list(m.labelIds),
    from: header(m.payload, 'From'),
    to: header(m.payload, 'To'),
    subject: header(m.payload, 'Subject'),
    date: header(m.payload, 'Date'),
  };
}

/** A detail fetch that is rate limited or fails at Gmail is noted like any other failed detail, not retried. */
const DETAIL_ANSWERED: readonly number[] = [429, 500, 502, 503, 504];

/** Fetches the full messages; ones whose details fail are noted, not fatal (§8). */
async function details(io: ToolIO, p: Obj, ids: string[]): Promise<{ messages: Obj[]; failed: string[] }> {
  const messages: Obj[] = [];
  const failed: string[] = [];
  for (const id of ids) {
    const res = await call(io, { url: `${io.baseUrl('gmail')}/messages/${seg(id)}`, query: { format: 'full' }, headers: bearer(p.accessToken), answerStatuses: DETAIL_ANSWERED });
    if (res.ok) messages.push(obj(res.data));
    else if (res.status === 401) throw failure(res);
    else failed.push(id);
  }
  return { messages, failed };
}

const render = (m: Obj) => {
  const s = summary(m);
  return `From: ${s.from}\nTo: ${s.to}\nSubject: ${s.subject}\nDate: ${s.date}\n\n${bodyText(m.payload)}`;
};
const failedNote = (failed: string[]) => (failed.length ? `\n\nDetails could not be retrieved for ${failed.length} message(s): ${failed.join(', ')}` : '');

const ids = (listing: Obj) => list(listing.messages).map((m) => String(obj(m).id));

/** Gmail tools: send, draft, read (one by id or the newest of a folder), search. */
export const gmailTools: ServiceTool[] = [
  serviceTool('gmail_send', async (p, io) => {
    const d = await gmail(io, p, '/messages/send', { method: 'POST', json: { raw: rawMessage(text(p.to), text(p.subject), String(p.body ?? '')) } });
    return { content: 'Email sent successfully', metadata: { id: d.id, threadId: d.threadId, labelIds: list(d.labelIds) } };
  }),
  serviceTool('gmail_draft', async (p, io) => {
    const d = await gmail(io, p, '/drafts', { method: 'POST', json: { message: { raw: rawMessage(text(p.to), text(p.subject), String(p.body ?? '')) } } });
    const m = obj(d.message);
    return { content: 'Email drafted successfully', metadata: { id: d.id, message: { id: m.id, threadId: m.threadId, labelIds: list(m.labelIds) } } };
  }),
  serviceTool('gmail_read', async (p, io) => {
    const messageId = text(p.messageId);
    if (messageId !== '') {
      const m = await gmail(io, p, `/messages/${seg(messageId)}`, { query: { format: 'full' } });
      return { content: render(m), metadata: summary(m) };
    }
    const q = `${gmailFolderQuery(p.folder)}${p.unreadOnly === true || p.unreadOnly === 'true' ? ' is:unread' : ''}`;
    const maxResults = clamp(toInt(p.maxResults, READ.default), READ.min, READ.max);
    const found = ids(await gmail(io, p, '/messages', { query: { q, maxResults } }));
    if (found.length === 0) return { content: 'No messages found in the selected folder.', metadata: { results: [] } };
    const { messages, failed } = await details(io, p, found);
    if (messages.length === 1 && failed.length === 0) return { content: render(messages[0]!), metadata: summary(messages[0]!) };
    const content = `Found ${found.length} messages:\n\n${messages.map(render).join('\n\n---\n\n')}${failedNote(failed)}`;
    return { content, metadata: { results: messages.map(summary) } };
  }),
  serviceTool('gmail_search', async (p, io) => {
    const maxResults = toInt(p.maxResults, 10);
    const found = ids(await gmail(io, p, '/messages', { query: { q: text(p.query), maxResults } }));
    if (found.length === 0) return { content: 'No messages found matching your search query.', metadata: { results: [] } };
    const { messages, failed } = await details(io, p, found);
    const lines = messages.map((m, i) => {
      const s = summary(m);
      return `${i + 1}. ${s.subject} (from ${s.from}, ${s.date})\n${String(m.snippet ?? '')}`;
    });
    return { content: `Found ${found.length} messages:\n\n${lines.join('\n\n')}${failedNote(failed)}`, metadata: { results: messages.map(summary) } };
  }),
];
