import { SLACK_FIXTURES, createFakeSlack } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { blockPayload, useFamily } from '../testSupport.js';
import { slackTools } from './slack.tools.js';

const sl = useFamily(createFakeSlack, ['slack'], slackTools);
const json = { 'content-type': 'application/json' };

describe('slack', () => {
  it('slack_message posts channel and text with the token and answers ts and channel', async () => {
    const r = await sl.run('slack_message', { accessToken: 'xoxb-1', channel: ' C0123 ', text: 'hello *there*' });
    sl.expectRequest('slack_message', 'POST', '/chat.postMessage', { headers: { authorization: 'Bearer xoxb-1', ...json }, body: { channel: 'C0123', text: 'hello *there*' } });
    expect(r).toEqual({ success: true, output: { ts: SLACK_FIXTURES.postMessage.ts, channel: 'C0123' } });
  });

  it('slack_message answers the Slack error code, or "Slack API error" without one', async () => {
    sl.fake.once('POST', '/chat.postMessage', { json: { ok: false, error: 'channel_not_found' } });
    await sl.expectError('slack_message', { accessToken: 't', channel: 'C9', text: 'x' }, 'channel_not_found');
    sl.fake.once('POST', '/chat.postMessage', { status: 400, json: {} });
    await sl.expectError('slack_message', { accessToken: 't', channel: 'C9', text: 'x' }, 'Slack API error');
  });

  it('slack_message: a 5xx is raised to the execution layer as retryable, not answered', async () => {
    sl.fake.once('POST', '/chat.postMessage', { status: 503, json: {} });
    expect(await sl.run('slack_message', { accessToken: 't', channel: 'C9', text: 'x' })).toEqual({ success: false, output: {}, error: 'HTTP error 503: Service Unavailable' });
  });

  it('slack_canvas creates a markdown canvas in the channel', async () => {
    const r = await sl.run('slack_canvas', { accessToken: 'xoxp-2', channel: 'C0123', title: 'Plan', content: '# Q3' });
    sl.expectRequest('slack_canvas', 'POST', '/canvases.create', {
      headers: { authorization: 'Bearer xoxp-2', ...json },
      body: { title: 'Plan', channel_id: 'C0123', document_content: { type: 'markdown', markdown: '# Q3' } },
    });
    expect(r).toEqual({ success: true, output: { canvas_id: 'F0CANVAS1', channel: 'C0123', title: 'Plan' } });
  });

  it('slack_canvas fails with the Slack error', async () => {
    sl.fake.once('POST', '/canvases.create', { json: { ok: false, error: 'missing_scope' } });
    await sl.expectError('slack_canvas', { accessToken: 't', channel: 'C1', title: 'a', content: 'b' }, 'missing_scope');
  });

  it('slack_message_reader reads history with limit clamped to 15 and oldest', async () => {
    const r = await sl.run('slack_message_reader', { accessToken: 'xoxb-3', channel: 'C0123', limit: 50, oldest: '1712000000.0' });
    sl.expectRequest('slack_message_reader', 'GET', '/conversations.history', { headers: { authorization: 'Bearer xoxb-3' }, query: { channel: 'C0123', limit: '15', oldest: '1712000000.0' } });
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
    sl.fake.once('GET', '/conversations.history', { json: { ok: false, error: 'not_in_channel' } });
    await sl.expectError('slack_message_reader', { accessToken: 't', channel: 'C1', limit: 'abc' }, 'not_in_channel');
    sl.expectRequest('slack_message_reader', 'GET', '/conversations.history', { query: { channel: 'C1', limit: '10' } });
  });

});

describe('§7 Slack block payload keys: channel plus accessToken or credential, and text; title and content; or limit and oldest', () => {
  it('send: channel, credential and text; the credential becomes the bearer token', async () => {
    const { toolId, params } = blockPayload('slack', { operation: 'send', authMethod: 'oauth', credential: 'cred-sl', channel: 'C0123', text: 'hi' });
    expect(toolId).toBe('slack_message');
    expect(Object.keys(params).sort()).toEqual(['channel', 'credential', 'text']);
    expect(await sl.run(toolId, params)).toMatchObject({ success: true, output: { channel: 'C0123' } });
    sl.expectRequest('slack_message', 'POST', '/chat.postMessage', { headers: { authorization: 'Bearer oauth-cred-sl' }, body: { channel: 'C0123', text: 'hi' } });
  });

  it('canvas: channel, accessToken (a custom bot), title and content', async () => {
    const { toolId, params } = blockPayload('slack', { operation: 'canvas', authMethod: 'bot_token', botToken: 'xoxb-9', manualChannel: 'C7', title: 'Plan', content: '# Q3' });
    expect(toolId).toBe('slack_canvas');
    expect(Object.keys(params).sort()).toEqual(['accessToken', 'channel', 'content', 'title']);
    expect(await sl.run(toolId, params)).toMatchObject({ success: true, output: { channel: 'C7', title: 'Plan' } });
    sl.expectRequest('slack_canvas', 'POST', '/canvases.create', {
      headers: { authorization: 'Bearer xoxb-9' },
      body: { title: 'Plan', channel_id: 'C7', document_content: { type: 'markdown', markdown: '# Q3' } },
    });
  });

  it('read: channel, credential, limit and oldest', async () => {
    const { toolId, params } = blockPayload('slack', { operation: 'read', authMethod: 'oauth', credential: 'cred-sl', channel: 'C0123', limit: '12', oldest: '1712000000.0' });
    expect(toolId).toBe('slack_message_reader');
    expect(Object.keys(params).sort()).toEqual(['channel', 'credential', 'limit', 'oldest']);
    expect(await sl.run(toolId, params)).toMatchObject({ success: true });
    sl.expectRequest('slack_message_reader', 'GET', '/conversations.history', { headers: { authorization: 'Bearer oauth-cred-sl' }, query: { channel: 'C0123', limit: '12', oldest: '1712000000.0' } });
  });
});
