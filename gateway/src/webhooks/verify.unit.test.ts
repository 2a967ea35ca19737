import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, type WebhookRequest } from './verify.js';

const NOW_MS = 1_750_000_000_000;
const now = () => NOW_MS;
const nowS = String(NOW_MS / 1000);

function req(body: unknown, headers: Record<string, string> = {}, extra: Partial<WebhookRequest> = {}): WebhookRequest {
  const raw = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return { method: 'POST', headers, query: {}, rawBody: raw, body, ...extra };
}
const hex = (key: string | Buffer, data: string | Buffer) => createHmac('sha256', key).update(data).digest('hex');
const opts = (provider: string, secret: string, verifyToken = secret) => ({ provider, secret, verifyToken, now });

describe('verifyWebhook', () => {
  it('generic: bearer or header token; no secret runs anything', () => {
    expect(verifyWebhook(req({ a: 1 }, { authorization: 'Bearer s3cret' }), opts('generic', 's3cret'))).toEqual({ kind: 'run' });
    expect(verifyWebhook(req({ a: 1 }, { 'x-webhook-token': 's3cret', 'idempotency-key': 'k1' }), opts('generic', 's3cret'))).toEqual({ kind: 'run', deliveryId: 'k1' });
    expect(verifyWebhook(req({ a: 1 }, { authorization: 'Bearer wrong' }), opts('generic', 's3cret'))).toEqual({ kind: 'refused', message: 'Invalid webhook token' });
    expect(verifyWebhook(req({ a: 1 }), opts('generic', 's3cret')).kind).toBe('refused');
    expect(verifyWebhook(req({ a: 1 }), opts('generic', ''))).toEqual({ kind: 'run' });
  });

  it("gmail (a Pub/Sub push): the secret as the endpoint's token query parameter or a bearer, Pub/Sub's messageId as delivery id", () => {
    const push = { message: { data: Buffer.from('{"emailAddress":"a@b.c","historyId":"9"}').toString('base64'), messageId: 'm-41', publishTime: '2026-11-27T10:00:00Z' }, subscription: 'projects/p/subscriptions/s' };
    expect(verifyWebhook(req(push, {}, { query: { token: 'g-secret' } }), opts('gmail', 'g-secret'))).toEqual({ kind: 'run', deliveryId: 'm-41' });
    expect(verifyWebhook(req(push, { authorization: 'Bearer g-secret' }), opts('gmail', 'g-secret'))).toEqual({ kind: 'run', deliveryId: 'm-41' });
    expect(verifyWebhook(req(push, {}, { query: { token: 'wrong' } }), opts('gmail', 'g-secret'))).toEqual({ kind: 'refused', message: 'Invalid webhook token' });
    expect(verifyWebhook(req(push), opts('gmail', 'g-secret')).kind).toBe('refused');
    // No secret set: runs, still deduplicated by the message id.
    expect(verifyWebhook(req(push), opts('gmail', ''))).toEqual({ kind: 'run', deliveryId: 'm-41' });
    expect(verifyWebhook(req({ other: true }, { 'idempotency-key': 'k2' }), opts('gmail', ''))).toEqual({ kind: 'run', deliveryId: 'k2' });
  });

  it('github: X-Hub-Signature-256 over the raw body, delivery id from X-GitHub-Delivery', () => {
    const body = { action: 'opened' };
    const raw = JSON.stringify(body);
    const good = req(body, { 'x-hub-signature-256': `sha256=${hex('gh', raw)}`, 'x-github-delivery': 'd-1' });
    expect(verifyWebhook(good, opts('github', 'gh'))).toEqual({ kind: 'run', deliveryId: 'd-1' });
    const tampered = { ...good, rawBody: Buffer.from(JSON.stringify({ action: 'closed' })) };
    expect(verifyWebhook(tampered, opts('github', 'gh')).kind).toBe('refused');
  });

  it('slack: signing secret over v0:timestamp:body, url_verification answered, stale timestamps refused', () => {
    const challenge = { type: 'url_verification', challenge: 'abc' };
    const raw = JSON.stringify(challenge);
    const headers = { 'x-slack-request-timestamp': nowS, 'x-slack-signature': `v0=${hex('sl', `v0:${nowS}:${raw}`)}` };
    expect(verifyWebhook(req(challenge, headers), opts('slack', 'sl'))).toEqual({ kind: 'handshake', status: 200, contentType: 'json', body: { challenge: 'abc' } });
    const event = { type: 'event_callback', event_id: 'Ev1' };
    const evRaw = JSON.stringify(event);
    expect(verifyWebhook(req(event, { 'x-slack-request-timestamp': nowS, 'x-slack-signature': `v0=${hex('sl', `v0:${nowS}:${evRaw}`)}` }), opts('slack', 'sl'))).toEqual({ kind: 'run', deliveryId: 'Ev1' });
    const old = String(NOW_MS / 1000 - 301);
    expect(verifyWebhook(req(event, { 'x-slack-request-timestamp': old, 'x-slack-signature': `v0=${hex('sl', `v0:${old}:${evRaw}`)}` }), opts('slack', 'sl')).kind).toBe('refused');
    expect(verifyWebhook(req(challenge, { ...headers, 'x-slack-signature': 'v0=00' }), opts('slack', 'sl')).kind).toBe('refused');
  });

  it('stripe (generic provider with a Stripe-Signature): t and v1, event id as delivery id', () => {
    const event = { id: 'evt_1', type: 'charge.succeeded' };
    const raw = JSON.stringify(event);
    const sig = `t=${nowS},v1=${hex('whsec_x', `${nowS}.${raw}`)}`;
    expect(verifyWebhook(req(event, { 'stripe-signature': sig }), opts('generic', 'whsec_x'))).toEqual({ kind: 'run', deliveryId: 'evt_1' });
    expect(verifyWebhook(req(event, { 'stripe-signature': `t=${nowS},v1=${hex('other', `${nowS}.${raw}`)}` }), opts('generic', 'whsec_x'))).toEqual({ kind: 'refused', message: 'Invalid Stripe signature' });
    // Without a secret nothing is checked, and Stripe's event id still names the delivery (a redelivery runs once).
    expect(verifyWebhook(req(event, { 'stripe-signature': sig }), opts('generic', ''))).toEqual({ kind: 'run', deliveryId: 'evt_1' });
    expect(verifyWebhook(req(event, { 'stripe-signature': sig, 'idempotency-key': 'k1' }), opts('generic', ''))).toEqual({ kind: 'run', deliveryId: 'k1' });
    // Signed right, but at a time more than the tolerance (300 s) away either way: a replay, refused.
    for (const t of [String(NOW_MS / 1000 - 301), String(NOW_MS / 1000 + 301)]) {
      const stale = `t=${t},v1=${hex('whsec_x', `${t}.${raw}`)}`;
      expect(verifyWebhook(req(event, { 'stripe-signature': stale }), opts('generic', 'whsec_x'))).toEqual({ kind: 'refused', message: 'Invalid Stripe signature' });
    }
    // Not a Stripe call: a body's id is nobody's delivery id.
    expect(verifyWebhook(req(event, {}), opts('generic', ''))).toEqual({ kind: 'run' });
  });

  it('whatsapp: GET verify token handshake, POST X-Hub-Signature-256', () => {
    const get = req('', {}, { method: 'GET', query: { 'hub.mode': 'subscribe', 'hub.verify_token': 'vt', 'hub.challenge': '42' } });
    expect(verifyWebhook(get, opts('whatsapp', 'app', 'vt'))).toEqual({ kind: 'handshake', status: 200, contentType: 'text', body: '42' });
    expect(verifyWebhook({ ...get, query: { ...get.query, 'hub.verify_token': 'no' } }, opts('whatsapp', 'app', 'vt')).kind).toBe('refused');
    const body = { entry: [{ changes: [{ value: { messages: [{ id: 'wamid.1' }] } }] }] };
    const raw = JSON.stringify(body);
    expect(verifyWebhook(req(body, { 'x-hub-signature-256': `sha256=${hex('app', raw)}` }), opts('whatsapp', 'app', 'vt'))).toEqual({ kind: 'run', deliveryId: 'wamid.1' });
    expect(verifyWebhook(req(body, { 'x-hub-signature-256': 'sha256=bad' }), opts('whatsapp', 'app', 'vt')).kind).toBe('refused');
  });

  it("whatsapp: a status update's delivery id is its message id with its status (Meta retries each; each status runs once)", () => {
    const update = (status: string) => ({ entry: [{ changes: [{ value: { statuses: [{ id: 'wamid.9', status, recipient_id: '15550001' }] } }] }] });
    const signed = (body: unknown) => req(body, { 'x-hub-signature-256': `sha256=${hex('app', JSON.stringify(body))}` });
    expect(verifyWebhook(signed(update('delivered')), opts('whatsapp', 'app', 'vt'))).toEqual({ kind: 'run', deliveryId: 'status:wamid.9:delivered' });
    expect(verifyWebhook(signed(update('read')), opts('whatsapp', 'app', 'vt'))).toEqual({ kind: 'run', deliveryId: 'status:wamid.9:read' });
    // Neither a message nor a status: no delivery id to run it once by.
    expect(verifyWebhook(signed({ entry: [{ changes: [{ value: {} }] }] }), opts('whatsapp', 'app', 'vt'))).toEqual({ kind: 'run' });
  });

  it('telegram: secret token header, update_id as delivery id', () => {
    expect(verifyWebhook(req({ update_id: 7 }, { 'x-telegram-bot-api-secret-token': 'tg' }), opts('telegram', 'tg'))).toEqual({ kind: 'run', deliveryId: '7' });
    expect(verifyWebhook(req({ update_id: 7 }, { 'x-telegram-bot-api-secret-token': 'no' }), opts('telegram', 'tg')).kind).toBe('refused');
    // No header at all while a secret is set: refused (401) as a wrong one.
    expect(verifyWebhook(req({ update_id: 7 }), opts('telegram', 'tg'))).toEqual({ kind: 'refused', message: 'Invalid Telegram secret token' });
  });

  it('discord: Ed25519 over timestamp + body, PING answered', () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const pub = publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');
    const body = { type: 1 };
    const raw = JSON.stringify(body);
    const signature = sign(null, Buffer.from(`${nowS}${raw}`), privateKey).toString('hex');
    const headers = { 'x-signature-ed25519': signature, 'x-signature-timestamp': nowS };
    expect(verifyWebhook(req(body, headers), opts('discord', pub))).toEqual({ kind: 'handshake', status: 200, contentType: 'json', body: { type: 1 } });
    expect(verifyWebhook(req({ type: 2 }, headers), opts('discord', pub)).kind).toBe('refused');
    // A correctly signed call whose signed timestamp is more than 300 s away is a replay: refused.
    const signedAt = (s: number) => {
      const ts = String(NOW_MS / 1000 + s);
      return { 'x-signature-ed25519': sign(null, Buffer.from(`${ts}${raw}`), privateKey).toString('hex'), 'x-signature-timestamp': ts };
    };
    const stale = { kind: 'refused', message: 'Stale Discord request: X-Signature-Timestamp is more than 300 s from now' };
    expect(verifyWebhook(req(body, signedAt(-301)), opts('discord', pub))).toEqual(stale);
    expect(verifyWebhook(req(body, signedAt(301)), opts('discord', pub))).toEqual(stale);
    expect(verifyWebhook(req(body, signedAt(-299)), opts('discord', pub)).kind).toBe('handshake');
  });

  it('microsoft teams and airtable: HMACs with a base64 key', () => {
    const key = Buffer.from('teams-key').toString('base64');
    const body = { id: 'm1', text: 'hi' };
    const raw = JSON.stringify(body);
    const auth = `HMAC ${createHmac('sha256', Buffer.from(key, 'base64')).update(raw).digest('base64')}`;
    expect(verifyWebhook(req(body, { authorization: auth }), opts('microsoftteams', key))).toEqual({ kind: 'run', deliveryId: 'm1' });
    expect(verifyWebhook(req(body, { authorization: 'HMAC x' }), opts('microsoftteams', key)).kind).toBe('refused');
    const mac = `hmac-sha256=${hex(Buffer.from(key, 'base64'), raw)}`;
    expect(verifyWebhook(req(body, { 'x-airtable-content-mac': mac, 'idempotency-key': 'a1' }), opts('airtable', key))).toEqual({ kind: 'run', deliveryId: 'a1' });
    expect(verifyWebhook(req(body, { 'x-airtable-content-mac': 'hmac-sha256=00' }), opts('airtable', key)).kind).toBe('refused');
  });
});
