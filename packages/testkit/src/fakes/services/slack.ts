import type { FakeAnswer, FakeServer, RecordedRequest } from '../server.js';
import { createServiceFake } from './kit.js';

const channel = (id: string, name: string, isPrivate = false, isArchived = false) => ({ id, name, is_channel: true, is_private: isPrivate, is_archived: isArchived, num_members: 3 });

/** Recorded Slack Web API answers. */
export const SLACK_FIXTURES = {
  postMessage: { ok: true, channel: 'C0123', ts: '1712345678.000100', message: { text: 'hello', ts: '1712345678.000100' } },
  canvasCreate: { ok: true, canvas_id: 'F0CANVAS1' },
  history: {
    ok: true,
    messages: [
      { type: 'message', user: 'U1', text: 'second', ts: '1712345679.000200' },
      { type: 'message', user: 'U2', text: 'first', ts: '1712345678.000100', subtype: 'bot_message' },
    ],
    has_more: false,
  },
  /** The workspace's channels, in the order `conversations.list` pages through them. */
  channels: [channel('C024BE91L', 'general'), channel('C024BE92M', 'random'), channel('G0PRIVATE1', 'eng-private', true), channel('C024BE93N', 'design'), channel('C024BE94P', 'general-announcements')],
  /** Archived channels: after the others in `conversations.list` unless `exclude_archived=true`; `conversations.info` answers them (is_archived true). */
  archivedChannels: [channel('C0ARCHIVE1', 'old-launch', false, true)],
} as const;

/**
 * `conversations.list` as Slack pages it: `limit` channels from the `cursor` (opaque to clients;
 * `next:<offset>` here), `response_metadata.next_cursor` '' on the last page, the archived ones left
 * out with `exclude_archived=true`; `{ok: false, error: 'not_authed'}` (with 200, as Slack answers)
 * without a bearer token.
 */
function conversationsList(req: RecordedRequest): FakeAnswer {
  if (!/^Bearer \S+/.test(String(req.headers.authorization ?? ''))) return { json: { ok: false, error: 'not_authed' } };
  const offset = req.query.cursor?.startsWith('next:') ? Number(req.query.cursor.slice(5)) : 0;
  const limit = Number(req.query.limit ?? 100) || 100;
  const all = req.query.exclude_archived === 'true' ? SLACK_FIXTURES.channels : [...SLACK_FIXTURES.channels, ...SLACK_FIXTURES.archivedChannels];
  const channels = all.slice(offset, offset + limit);
  const next = offset + limit < all.length ? `next:${offset + limit}` : '';
  return { json: { ok: true, channels, response_metadata: { next_cursor: next } } };
}

/** `conversations.info` of one of the workspace's channels, archived ones too; `channel_not_found` for any other id. */
function conversationsInfo(req: RecordedRequest): FakeAnswer {
  if (!/^Bearer \S+/.test(String(req.headers.authorization ?? ''))) return { json: { ok: false, error: 'not_authed' } };
  const found = [...SLACK_FIXTURES.channels, ...SLACK_FIXTURES.archivedChannels].find((c) => c.id === req.query.channel);
  return { json: found ? { ok: true, channel: found } : { ok: false, error: 'channel_not_found' } };
}

/** A fake Slack Web API (`/chat.postMessage`, `/canvases.create`, `/conversations.history`, `/conversations.list`, `/conversations.info`). */
export function createFakeSlack(): Promise<FakeServer> {
  return createServiceFake([
    ['POST', '/chat.postMessage', { json: SLACK_FIXTURES.postMessage }],
    ['POST', '/canvases.create', { json: SLACK_FIXTURES.canvasCreate }],
    ['GET', '/conversations.history', { json: SLACK_FIXTURES.history }],
    ['GET', '/conversations.list', conversationsList],
    ['GET', '/conversations.info', conversationsInfo],
  ]);
}
