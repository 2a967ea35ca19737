import type { FakeServer } from '../server.js';
import { createServiceFake } from './kit.js';

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
} as const;

/** A fake Slack Web API (`/chat.postMessage`, `/canvases.create`, `/conversations.history`). */
export function createFakeSlack(): Promise<FakeServer> {
  return createServiceFake([
    ['POST', '/chat.postMessage', { json: SLACK_FIXTURES.postMessage }],
    ['POST', '/canvases.create', { json: SLACK_FIXTURES.canvasCreate }],
    ['GET', '/conversations.history', { json: SLACK_FIXTURES.history }],
  ]);
}
