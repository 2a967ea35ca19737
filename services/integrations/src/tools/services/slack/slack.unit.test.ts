import { SLACK_FIXTURES, createFakeSlack, type FakeServer } from '@weft/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestIO, runServiceTool } from '../testHarness.js';
import { slackTools } from './slack.tools.js';

const tool = (id: string) => slackTools.find((t) => t.id === id);
let fake: FakeServer;
beforeAll(async () => {
  fake = await createFakeSlack();
});
beforeEach(() => {
  fake.requests.length = 0;
});
afterAll(() => fake.close());
const io = () => createTestIO({ slack: fake.url });

describe('slack', () => {
  it('slack_message posts channel and text with the token and answers ts and channel', async () => {
    const r = await runServiceTool(tool('slack_message'), { accessToken: 'xoxb-1', channel: ' C0123 ', text: 'hello *there*' }, io());
    expect(r).toEqual({ success: true, output: { ts: SLACK_FIXTURES.postMessage.ts, channel: 'C0123' } });
    const [req] = fake.received('POST', '/chat.postMessage');
    expect(req?.headers.authorization).toBe('Bearer xoxb-1');
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.body).toEqual({ channel: 'C0123', text: 'hello *there*' });
  });

  it('slack_message answers the Slack error code, or "Slack API error" without one', async () => {
    fake.once('POST', '/chat.postMessage', { json: { ok: false, error: 'channel_not_found' } });
    expect(await runServiceTool(tool('slack_message'), { accessToken: 't', channel: 'C9', text: 'x' }, io())).toMatchObject({ success: false, error: 'channel_not_found' });
    fake.once('POST', '/chat.postMessage', { status: 500, json: {} });
    expect(await runServiceTool(tool('slack_message'), { accessToken: 't', channel: 'C9', text: 'x' }, io())).toMatchObject({ success: false, error: 'Slack API error' });
  });

  it('slack_canvas creates a markdown canvas in the channel', async () => {
    const r = await runServiceTool(tool('slack_canvas'), { accessToken: 'xoxp-2', channel: 'C0123', title: 'Plan', content: '# Q3' }, io());
    expect(r).toEqual({ success: true, output: { canvas_id: 'F0CANVAS1', channel: 'C0123', title: 'Plan' } });
    const [req] = fake.received('POST', '/canvases.create');
    expect(req?.headers.authorization).toBe('Bearer xoxp-2');
    expect(req?.body).toEqual({ title: 'Plan', channel_id: 'C0123', document_content: { type: 'markdown', markdown: '# Q3' } });
  });

  it('slack_canvas fails with the Slack error', async () => {
    fake.once('POST', '/canvases.create', { json: { ok: false, error: 'missing_scope' } });
    expect(await runServiceTool(tool('slack_canvas'), { accessToken: 't', channel: 'C1', title: 'a', content: 'b' }, io())).toMatchObject({ success: false, error: 'missing_scope' });
  });

  it('slack_message_reader reads history with limit clamped to 15 and oldest', async () => {
    const r = await runServiceTool(tool('slack_message_reader'), { accessToken: 'xoxb-3', channel: 'C0123', limit: 50, oldest: '1712000000.0' }, io());
    const [req] = fake.received('GET', '/conversations.history');
    expect(req?.headers.authorization).toBe('Bearer xoxb-3');
    expect(req?.query).toEqual({ channel: 'C0123', limit: '15', oldest: '1712000000.0' });
    expect(r).toEqual({
      success: true,
      output: {
        messages: [
          { ts: '1712345679.000200', text: 'second', user: 'U1', type: 'message', subtype: '' },
          { ts: '1712345678.000100', text: 'first', user: 'U2', type: 'message', subtype: 'bot_message' },
        ],
      },
    });
  });

  it('slack_message_reader defaults the limit to 10 and fails with the Slack error', async () => {
    fake.once('GET', '/conversations.history', { json: { ok: false, error: 'not_in_channel' } });
    const r = await runServiceTool(tool('slack_message_reader'), { accessToken: 't', channel: 'C1', limit: 'abc' }, io());
    expect(fake.received('GET', '/conversations.history')[0]?.query.limit).toBe('10');
    expect(r).toMatchObject({ success: false, error: 'not_in_channel' });
  });
});
