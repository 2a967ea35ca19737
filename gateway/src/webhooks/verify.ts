import { createHmac, createPublicKey, timingSafeEqual, verify as verifySignature } from 'node:crypto';

/** A webhook call as the verifiers read it; header names are lowercase. */
export interface WebhookRequest {
  method: string;
  headers: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
  rawBody: Buffer;
  body: unknown;
}

/** What the route does with a call: answer a handshake, refuse it, or run the workflow once per delivery id. */
export type Verdict =
  | { kind: 'handshake'; status: number; contentType: 'json' | 'text'; body: unknown }
  | { kind: 'refused'; message: string }
  | { kind: 'run'; deliveryId?: string };

/** Provider secrets and tolerances the verifiers use. */
export interface VerifyOptions {
  provider: string;
  secret: string;
  verifyToken: string;
  /** Seconds a signed timestamp (Slack, Stripe, Discord) may be off; default 300. */
  toleranceS?: number;
  now?: () => number;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function hmacHex(key: string | Buffer, data: string | Buffer): string {
  return createHmac('sha256', key).update(data).digest('hex');
}

function field(body: unknown, ...path: Array<string | number>): unknown {
  let cur: unknown = body;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[key];
  }
  return cur;
}

function idOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}

function withinTolerance(timestampS: string | undefined, opts: VerifyOptions): boolean {
  const t = Number(timestampS);
  const now = (opts.now ?? Date.now)() / 1000;
  return Number.isFinite(t) && Math.abs(now - t) <= (opts.toleranceS ?? 300);
}

const refused = (message: string): Verdict => ({ kind: 'refused', message });

/** GitHub and WhatsApp (Meta): `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(secret, body)>`. */
function hubSignature(req: WebhookRequest, secret: string): boolean {
  const given = req.headers['x-hub-signature-256'] ?? '';
  return safeEqual(given, `sha256=${hmacHex(secret, req.rawBody)}`);
}

/** Stripe: `Stripe-Signature: t=<s>,v1=<hex HMAC-SHA256(secret, "t.body")>` (any v1 may match). */
function stripeSignature(req: WebhookRequest, opts: VerifyOptions): boolean {
  const parts = (req.headers['stripe-signature'] ?? '').split(',').map((p) => p.trim().split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  const expected = hmacHex(opts.secret, `${t ?? ''}.${req.rawBody.toString('utf8')}`);
  return t !== undefined && withinTolerance(t, opts) && parts.some(([k, v]) => k === 'v1' && v !== undefined && safeEqual(v, expected));
}

/**
 * Generic: `Authorization: Bearer <secret>` or an `X-Webhook-Token`/`X-Webhook-Secret` header; a
 * Stripe-Signature is checked as Stripe's. The delivery id: `Idempotency-Key`, else for a Stripe call
 * (it always sends a Stripe-Signature) its event id, whether or not a secret is set — Stripe
 * redelivers an event with the same id.
 */
function generic(req: WebhookRequest, opts: VerifyOptions): Verdict {
  const stripe = req.headers['stripe-signature'] !== undefined;
  const deliveryId = req.headers['idempotency-key'] ?? (stripe ? idOf(field(req.body, 'id')) : undefined);
  const run: Verdict = { kind: 'run', ...(deliveryId ? { deliveryId } : {}) };
  if (opts.secret === '') return run;
  if (stripe) return stripeSignature(req, opts) ? run : refused('Invalid Stripe signature');
  const auth = req.headers.authorization ?? '';
  const bearer = /^Bearer\s+(.+)$/i.exec(auth)?.[1];
  const token = bearer ?? req.headers['x-webhook-token'] ?? req.headers['x-webhook-secret'] ?? '';
  if (!safeEqual(token, opts.secret)) return refused('Invalid webhook token');
  return run;
}

/**
 * Gmail's push notifications come through a Google Cloud Pub/Sub push subscription: the secret is
 * given as the endpoint's `token` query parameter (Google's advice for push endpoints: put
 * `?token=<secret>` in the subscription's URL), or as a bearer or header token as for generic hooks.
 * Pub/Sub delivers at least once: its `message.messageId` names the delivery, so a redelivery runs
 * once.
 */
function gmail(req: WebhookRequest, opts: VerifyOptions): Verdict {
  const deliveryId = idOf(field(req.body, 'message', 'messageId'));
  const run: Verdict = { kind: 'run', ...(deliveryId ? { deliveryId } : {}) };
  if (opts.secret === '') return run;
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const given = [req.query['token'], bearer, req.headers['x-webhook-token'], req.headers['x-webhook-secret']];
  return given.some((token) => token !== undefined && safeEqual(token, opts.secret)) ? run : refused('Invalid webhook token');
}

function github(req: WebhookRequest, opts: VerifyOptions): Verdict {
  if (opts.secret !== '' && !hubSignature(req, opts.secret)) return refused('Invalid GitHub signature (X-Hub-Signature-256)');
  return { kind: 'run', deliveryId: req.headers['x-github-delivery'] };
}

function slack(req: WebhookRequest, opts: VerifyOptions): Verdict {
  if (opts.secret !== '') {
    const ts = req.headers['x-slack-request-timestamp'];
    const given = req.headers['x-slack-signature'] ?? '';
    const expected = `v0=${hmacHex(opts.secret, `v0:${ts ?? ''}:${req.rawBody.toString('utf8')}`)}`;
    if (!withinTolerance(ts, opts) || !safeEqual(given, expected)) return refused('Invalid Slack signature');
  }
  if (field(req.body, 'type') === 'url_verification') return { kind: 'handshake', status: 200, contentType: 'json', body: { challenge: field(req.body, 'challenge') } };
  return { kind: 'run', deliveryId: idOf(field(req.body, 'event_id')) };
}

function whatsapp(req: WebhookRequest, opts: VerifyOptions): Verdict {
  if (req.method === 'GET' && req.query['hub.mode'] === 'subscribe') {
    if (!safeEqual(req.query['hub.verify_token'] ?? '', opts.verifyToken)) return refused('Invalid WhatsApp verify token');
    return { kind: 'handshake', status: 200, contentType: 'text', body: req.query['hub.challenge'] ?? '' };
  }
  if (opts.secret !== '' && !hubSignature(req, opts.secret)) return refused('Invalid WhatsApp signature (X-Hub-Signature-256)');
  return { kind: 'run', deliveryId: whatsappDeliveryId(req.body) };
}

/**
 * A WhatsApp notification's delivery id: an incoming message's id, else for a status update (sent,
 * delivered, read… of a message the business sent) that message's id with the status — one message
 * has a status update of each kind, and Meta retries each with the same id and status.
 */
function whatsappDeliveryId(body: unknown): string | undefined {
  const value = ['entry', 0, 'changes', 0, 'value'] as const;
  const message = idOf(field(body, ...value, 'messages', 0, 'id'));
  if (message) return message;
  const status = idOf(field(body, ...value, 'statuses', 0, 'id'));
  const state = idOf(field(body, ...value, 'statuses', 0, 'status'));
  return status ? `status:${status}:${state ?? ''}` : undefined;
}

function telegram(req: WebhookRequest, opts: VerifyOptions): Verdict {
  if (opts.secret !== '' && !safeEqual(req.headers['x-telegram-bot-api-secret-token'] ?? '', opts.secret)) return refused('Invalid Telegram secret token');
  return { kind: 'run', deliveryId: idOf(field(req.body, 'update_id')) };
}

/** Discord interactions: Ed25519 over timestamp + body with the application's public key (hex, the secret), the timestamp within the tolerance. */
function discord(req: WebhookRequest, opts: VerifyOptions): Verdict {
  if (opts.secret !== '') {
    const signature = req.headers['x-signature-ed25519'] ?? '';
    const ts = req.headers['x-signature-timestamp'] ?? '';
    let valid: boolean;
    try {
      const key = createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(opts.secret, 'hex')]), format: 'der', type: 'spki' });
      valid = /^[0-9a-f]{128}$/i.test(signature) && verifySignature(null, Buffer.concat([Buffer.from(ts), req.rawBody]), key, Buffer.from(signature, 'hex'));
    } catch {
      valid = false;
    }
    if (!valid) return refused('Invalid Discord signature');
    // The timestamp is signed: a call signed more than the tolerance from now is a replay (Discord
    // sends each interaction once, at once, and never retries it), even past the delivery ids' retention.
    if (!withinTolerance(ts, opts)) return refused(`Stale Discord request: X-Signature-Timestamp is more than ${opts.toleranceS ?? 300} s from now`);
  }
  if (field(req.body, 'type') === 1) return { kind: 'handshake', status: 200, contentType: 'json', body: { type: 1 } };
  return { kind: 'run', deliveryId: idOf(field(req.body, 'id')) };
}

/** Microsoft Teams outgoing webhook: `Authorization: HMAC <base64 HMAC-SHA256(base64-decoded secret, body)>`. */
function teams(req: WebhookRequest, opts: VerifyOptions): Verdict {
  if (opts.secret !== '') {
    const expected = `HMAC ${createHmac('sha256', Buffer.from(opts.secret, 'base64')).update(req.rawBody).digest('base64')}`;
    if (!safeEqual(req.headers.authorization ?? '', expected)) return refused('Invalid Microsoft Teams HMAC');
  }
  return { kind: 'run', deliveryId: idOf(field(req.body, 'id')) };
}

/** Airtable: `X-Airtable-Content-MAC: hmac-sha256=<hex HMAC-SHA256(base64-decoded secret, body)>`. */
function airtable(req: WebhookRequest, opts: VerifyOptions): Verdict {
  if (opts.secret !== '') {
    const expected = `hmac-sha256=${hmacHex(Buffer.from(opts.secret, 'base64'), req.rawBody)}`;
    if (!safeEqual(req.headers['x-airtable-content-mac'] ?? '', expected)) return refused('Invalid Airtable content MAC');
  }
  return { kind: 'run', deliveryId: req.headers['idempotency-key'] };
}

/**
 * Checks a webhook call the way its provider signs it and says what to do. An `Idempotency-Key`
 * header names the delivery when the provider has no id of its own.
 */
export function verifyWebhook(req: WebhookRequest, opts: VerifyOptions): Verdict {
  let verdict: Verdict;
  switch (opts.provider) {
    case 'github':
      verdict = github(req, opts);
      break;
    case 'slack':
      verdict = slack(req, opts);
      break;
    case 'whatsapp':
      verdict = whatsapp(req, opts);
      break;
    case 'telegram':
      verdict = telegram(req, opts);
      break;
    case 'discord':
      verdict = discord(req, opts);
      break;
    case 'microsoftteams':
      verdict = teams(req, opts);
      break;
    case 'airtable':
      verdict = airtable(req, opts);
      break;
    case 'gmail':
      verdict = gmail(req, opts);
      break;
    default:
      // generic and anything else.
      verdict = generic(req, opts);
  }
  if (verdict.kind === 'run' && verdict.deliveryId === undefined && req.headers['idempotency-key']) return { kind: 'run', deliveryId: req.headers['idempotency-key'] };
  return verdict;
}
