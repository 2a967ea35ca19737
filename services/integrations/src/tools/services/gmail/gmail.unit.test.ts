import { GMAIL_FIXTURES, createFakeGmail } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { gmailTools } from './gmail.tools.js';

const gm = useFamily(createFakeGmail, { gmail: '/gmail/v1/users/me' }, gmailTools);
const base = '/gmail/v1/users/me';
const decodeRaw = (raw: unknown) => Buffer.from(String(raw), 'base64url').toString('utf8');

describe('gmail', () => {
  it('gmail_send posts the message as base64url raw', async () => {
    const r = await gm.run('gmail_send', { accessToken: 'ya29', to: 'bob@acme.example.invalid', subject: 'Hi', body: 'Hello Bob' });
    const req = gm.expectRequest('gmail_send', 'POST', `${base}/messages/send`, {
      headers: { authorization: 'Bearer ya29', 'content-type': 'application/json' },
      body: { raw: expect.stringMatching(/^[A-Za-z0-9_-]+$/) },
    });
    const raw = decodeRaw((req.body as { raw: string }).raw);
    expect(raw).toContain('To: bob@acme.example.invalid\r\nSubject: Hi\r\n');
    expect(raw.endsWith('\r\n\r\nHello Bob')).toBe(true);
    expect(r).toEqual({ success: true, output: { content: 'Email sent successfully', metadata: GMAIL_FIXTURES.sent } });
  });

  it('gmail_send: 401 and 429 give the §8 messages', async () => {
    gm.fake.once('POST', `${base}/messages/send`, { status: 401, json: { error: { message: 'Invalid Credentials' } } });
    await gm.expectError('gmail_send', { accessToken: 'x', to: 'a@b.c', subject: 's', body: 'b' }, 'Invalid or expired access token. Please reauthenticate.');
    gm.fake.once('POST', `${base}/messages/send`, { status: 429, json: { error: { message: 'Rate Limit Exceeded' } } });
    await gm.expectError('gmail_send', { accessToken: 'x', to: 'a@b.c', subject: 's', body: 'b' }, 'Gmail API quota exceeded. Please try again later.');
  });

  it('gmail_draft posts message.raw and answers the draft', async () => {
    const r = await gm.run('gmail_draft', { accessToken: 'ya29', to: 'bob@acme.example.invalid', subject: 'Héllo', body: 'Draft' });
    const req = gm.expectRequest('gmail_draft', 'POST', `${base}/drafts`, { headers: { authorization: 'Bearer ya29' }, body: { message: { raw: expect.stringMatching(/^[A-Za-z0-9_-]+$/) } } });
    expect(decodeRaw((req.body as { message: { raw: string } }).message.raw)).toContain(`Subject: =?UTF-8?B?${Buffer.from('Héllo').toString('base64')}?=`);
    expect(r).toEqual({ success: true, output: { content: 'Email drafted successfully', metadata: GMAIL_FIXTURES.draft } });
    gm.fake.once('POST', `${base}/drafts`, { status: 403, json: { error: { message: 'Quota exceeded for quota metric' } } });
    await gm.expectError('gmail_draft', { accessToken: 'x', to: 'a@b.c', subject: 's', body: 'b' }, 'Gmail API quota exceeded. Please try again later.');
  });

  it('gmail_read reads one message by id', async () => {
    const r = await gm.run('gmail_read', { accessToken: 'ya29', messageId: 'm7' });
    gm.expectRequest('gmail_read', 'GET', `${base}/messages/m7`, { headers: { authorization: 'Bearer ya29' }, query: { format: 'full' } });
    expect(r).toMatchObject({ success: true, output: { metadata: { id: 'm7', subject: 'Subject m7', from: 'Ada <ada@acme.example.invalid>' } } });
    expect(r.success && String((r.output as { content: string }).content)).toContain('Body of m7');
  });

  it('gmail_read maps folders to in:/label:, clamps maxResults to 10 and reads each message', async () => {
    const r = await gm.run('gmail_read', { accessToken: 'ya29', folder: 'SENT', unreadOnly: true, maxResults: 50 });
    gm.expectRequest('gmail_read', 'GET', `${base}/messages`, { headers: { authorization: 'Bearer ya29' }, query: { q: 'in:sent is:unread', maxResults: '10' } });
    expect(gm.fake.received('GET', `${base}/messages/:id`).map((q) => q.path.split('/').pop())).toEqual(['m1', 'm2']);
    expect(r).toMatchObject({ success: true, output: { metadata: { results: [{ id: 'm1' }, { id: 'm2' }] } } });
    await gm.run('gmail_read', { accessToken: 'ya29', folder: 'Receipts' });
    gm.expectRequest('gmail_read', 'GET', `${base}/messages`, { query: { q: 'label:Receipts', maxResults: '1' } });
  });

  it('gmail_read quotes a label name with spaces (unquoted, Gmail would read only its first word as the label)', async () => {
    await gm.run('gmail_read', { accessToken: 'ya29', folder: 'Team Updates', unreadOnly: true });
    gm.expectRequest('gmail_read', 'GET', `${base}/messages`, { query: { q: 'label:"Team Updates" is:unread', maxResults: '1' } });
    await gm.run('gmail_read', { accessToken: 'ya29', folder: 'Say "hi" now' });
    gm.expectRequest('gmail_read', 'GET', `${base}/messages`, { query: { q: 'label:Say--hi--now', maxResults: '1' } });
  });

  it('gmail_read notes messages whose details failed and still succeeds', async () => {
    gm.fake.once('GET', `${base}/messages/m2`, { status: 500, json: { error: { message: 'backend' } } });
    const r = await gm.run('gmail_read', { accessToken: 'ya29', maxResults: 2 });
    expect(gm.fake.received('GET', `${base}/messages`)[0]?.query.q).toBe('in:inbox');
    expect(r.success).toBe(true);
    expect(r.success && (r.output as { content: string }).content).toContain('Details could not be retrieved for 1 message(s): m2');
    gm.fake.once('GET', `${base}/messages`, { status: 401, json: {} });
    await gm.expectError('gmail_read', { accessToken: 'x' }, 'Invalid or expired access token. Please reauthenticate.');
  });

  it('gmail_search searches with q and maxResults', async () => {
    const r = await gm.run('gmail_search', { accessToken: 'ya29', query: 'from:ada invoice', maxResults: 5 });
    gm.expectRequest('gmail_search', 'GET', `${base}/messages`, { headers: { authorization: 'Bearer ya29' }, query: { q: 'from:ada invoice', maxResults: '5' } });
    expect(r).toMatchObject({ success: true, output: { metadata: { results: [{ id: 'm1', subject: 'Subject m1' }, { id: 'm2' }] } } });
    expect(r.success && (r.output as { content: string }).content).toMatch(/^Found 2 messages/);
    gm.fake.once('GET', `${base}/messages`, { status: 429, json: {} });
    await gm.expectError('gmail_search', { accessToken: 'x', query: 'a' }, 'Gmail API quota exceeded. Please try again later.');
  });
});
