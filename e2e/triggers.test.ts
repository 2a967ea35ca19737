import { createHmac, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import { Connection } from '@temporalio/client';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { api } from './support/http.js';
import { createAccount } from './support/accounts.js';
import { startSecondGateway } from './support/gateway.js';
import type { ScheduleView, WorkflowSchedules } from './support/schedules.js';
import { untilEnded } from './support/runs.js';
import { workflowWith } from './support/runStream.js';

interface Execution {
  executionId: string;
  status: string;
  trigger: string;
  input: { method?: string; headers?: Record<string, string>; query?: Record<string, string | string[]>; body?: unknown } | null;
  output: unknown;
  deploymentVersion: number | null;
  logs?: Array<{ blockId: string; skipped?: boolean }>;
}

type Command = Record<string, unknown>;
const set = (id: string, subBlockId: string, value: unknown): Command => ({ type: 'setSubBlockValue', id, subBlockId, value });

/** A new workflow of the default account: its starter's id goes to `build`, whose commands are applied. */
async function workflow(build: (starter: string) => Command[], cookie?: string): Promise<string> {
  return (await workflowWith(build, cookie === undefined ? {} : { cookie })).id;
}

/** Whether the stack's Temporal server holds the workflow's schedule (`<instance>-schedule-<workflowId>`). */
async function temporalSchedule(workflowId: string): Promise<'there' | 'gone'> {
  const env = inject('weftEnv');
  const connection = await Connection.connect({ address: env.TEMPORAL_ADDRESS ?? '' });
  try {
    // The raw call: the schedule's action carries encrypted payloads the client here cannot decode.
    await connection.workflowService.describeSchedule({ namespace: env.TEMPORAL_NAMESPACE ?? 'default', scheduleId: `${env.WEFT_INSTANCE ?? ''}-schedule-${workflowId}` });
    return 'there';
  } catch (err) {
    if ((err as { code?: number }).code === status.NOT_FOUND) return 'gone';
    throw err;
  } finally {
    await connection.close();
  }
}

/** The id of a workflow's starter block. */
async function starterOf(workflowId: string): Promise<string> {
  const got = await api<{ data: { state: { blocks: Record<string, { id: string; type: string }> } } }>('GET', `/api/workflows/${workflowId}`);
  return Object.values(got.body.data.state.blocks).find((b) => b.type === 'starter')?.id ?? '';
}

/** starter (webhook at `path` with `secret`) → function "Double" returning body.n * 2. */
function starterWebhook(path: string, secret: string) {
  return (starter: string): Command[] => [
    set(starter, 'startWorkflow', 'webhook'),
    set(starter, 'webhookPath', path),
    set(starter, 'webhookSecret', secret),
    { type: 'addBlock', id: 'double', blockType: 'function', name: 'Double', position: { x: 400, y: 100 } },
    set('double', 'code', 'return { n: <start.body.n> * 2, method: <start.method>, q: <start.query.q> }'),
    { type: 'addEdge', source: starter, target: 'double' },
  ];
}

/** starter → webhook block (`provider`, `config`) → function "Echo" [→ Response block answering 201]. */
function webhookBlock(provider: string, config: Record<string, unknown>, respond = false) {
  return (starter: string): Command[] => [
    { type: 'addBlock', id: 'hook', blockType: 'webhook', name: 'Hook', position: { x: 300, y: 100 } },
    set('hook', 'webhookProvider', provider),
    set('hook', 'webhookConfig', config),
    { type: 'addEdge', source: starter, target: 'hook' },
    { type: 'addBlock', id: 'echo', blockType: 'function', name: 'Echo', position: { x: 600, y: 100 } },
    set('echo', 'code', 'return { got: <start.body>, hook: <hook.input.body> }'),
    { type: 'addEdge', source: 'hook', target: 'echo' },
    ...(respond
      ? [
          { type: 'addBlock', id: 'answer', blockType: 'response', name: 'Answer', position: { x: 900, y: 100 } },
          set('answer', 'dataMode', 'json'),
          set('answer', 'data', '{"echoed": <echo.result.got.n>}'),
          set('answer', 'status', '201'),
          set('answer', 'headers', [{ id: 'h0', cells: { Key: 'X-Answered-By', Value: 'weft' } }]),
          { type: 'addEdge', source: 'echo', target: 'answer' },
        ]
      : []),
  ];
}

async function deploy(workflowId: string, cookie?: string): Promise<{ apiKey: string }> {
  const out = await api<{ apiKey: string }>('POST', `/api/workflows/${workflowId}/deploy`, {}, cookie === undefined ? {} : { cookie });
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body;
}

/** A call to a webhook path with a raw body (a string is sent as it is). */
async function hook(method: string, path: string, opts: { body?: unknown; headers?: Record<string, string>; base?: string } = {}) {
  const raw = opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  const res = await fetch(`${opts.base ?? inject('weftUrl')}/api/webhooks/trigger/${path}`, {
    method,
    headers: { ...(raw === undefined ? {} : { 'content-type': 'application/json' }), ...opts.headers },
    ...(raw === undefined ? {} : { body: raw }),
  });
  const text = await res.text();
  let body: Record<string, unknown> | string = text;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // a text answer
  }
  return { status: res.status, headers: res.headers, body };
}

async function executions(workflowId: string, trigger?: string): Promise<Execution[]> {
  const out = await api<{ executions: Execution[] }>('GET', `/api/workflows/${workflowId}/executions${trigger ? `?trigger=${trigger}` : ''}`);
  expect(out.status).toBe(200);
  return out.body.executions;
}

/** The run once it has ended, read by the default account or the one whose `cookie` is given. */
const finished = (executionId: string, cookie?: string) => untilEnded<Execution>(executionId, { headers: cookie === undefined ? {} : { cookie }, timeout: 60_000 });

const unique = () => randomUUID().slice(0, 8);
/** The blocks of a finished run that ran (not skipped), in log order. */
const ranBlocks = (run: Execution) => (run.logs ?? []).filter((l) => !l.skipped).map((l) => l.blockId);
/** An execute call with the deployment API key, answered once the run ended. */
async function viaApiKey(workflowId: string, apiKey: string, input: unknown = {}) {
  return api<Execution & { success: boolean }>('POST', `/api/workflows/${workflowId}/execute`, input, { 'x-api-key': apiKey });
}
const hmacHex = (key: string, data: string) => createHmac('sha256', key).update(data).digest('hex');

describe('webhook triggers through the gateway', () => {
  it('runs the deployed version with {method, headers, query, body} on every method; a bad token is 401 and runs nothing', async () => {
    const path = `orders-${unique()}/new`;
    const id = await workflow(starterWebhook(path, 's3cret'));
    await deploy(id);
    // The draft changes after the deploy: the webhook still runs what was deployed.
    await api('POST', `/api/workflows/${id}/commands`, { commands: [set('double', 'code', 'return 0')] });

    expect(await hook('POST', path, { body: { n: 21 } })).toMatchObject({ status: 401, body: { error: 'Invalid webhook token' } });
    expect(await hook('POST', path, { body: { n: 21 }, headers: { authorization: 'Bearer wrong' } })).toMatchObject({ status: 401 });

    const ok = await hook('POST', `${path}?q=yes`, { body: { n: 21 }, headers: { authorization: 'Bearer s3cret' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true });
    const run = await finished((ok.body as { executionId: string }).executionId);
    expect(run).toMatchObject({ status: 'succeeded', trigger: 'webhook', deploymentVersion: 1, output: { result: { n: 42, method: 'POST', q: 'yes' } } });
    expect(run.input).toMatchObject({ method: 'POST', query: { q: 'yes' }, body: { n: 21 } });
    expect(run.input?.headers?.['content-type']).toBe('application/json');

    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      const other = await hook(method, path, { headers: { 'x-webhook-token': 's3cret' } });
      expect(other.status).toBe(200);
      const done = await finished((other.body as { executionId: string }).executionId);
      expect(done.input).toMatchObject({ method, body: null });
    }
    // The refused calls started nothing: one POST and four other methods ran.
    expect(await executions(id, 'webhook')).toHaveLength(5);
  });

  it('a repeated query key or form field reaches the run as an array of its values, a single one as a string (as n8n gives them)', async () => {
    const path = `tags-${unique()}`;
    const id = await workflow((starter) => [
      ...starterWebhook(path, 'tag-secret')(starter),
      // A GET's query, a POST's form body.
      set('double', 'code', 'const got = <start.method> === "GET" ? <start.query> : <start.body>; return { tags: got.tag, first: got.tag[0], q: got.q }'),
    ]);
    await deploy(id);
    const token = { 'x-webhook-token': 'tag-secret' };
    const query = await hook('GET', `${path}?tag=a&q=one&tag=b%20c`, { headers: token });
    const form = await hook('POST', path, { body: 'tag=a&q=one&tag=b+c&__proto__=x', headers: { ...token, 'content-type': 'application/x-www-form-urlencoded' } });
    const runs = [];
    for (const call of [query, form]) {
      expect(call.status).toBe(200);
      const run = await finished((call.body as { executionId: string }).executionId);
      expect(run).toMatchObject({ status: 'succeeded', output: { result: { tags: ['a', 'b c'], first: 'a', q: 'one' } } });
      runs.push(run);
    }
    expect(runs[0]?.input?.query).toEqual({ tag: ['a', 'b c'], q: 'one' });
    expect(runs[1]?.input?.body).toEqual({ tag: ['a', 'b c'], q: 'one', ['__proto__']: 'x' });
  });

  it('answers 404 and runs nothing for an unknown path, an undeployed workflow or a deleted one', async () => {
    const path = `gone-${unique()}`;
    const id = await workflow(starterWebhook(path, ''));
    expect(await hook('POST', path, { body: { n: 1 } })).toEqual({ status: 404, headers: expect.anything(), body: { error: `No deployed workflow listens on webhook path "${path}"` } });
    await deploy(id);
    const status = await api<{ hasActiveWebhook: boolean }>('GET', `/api/workflows/${id}/deploy`);
    expect(status.body.hasActiveWebhook).toBe(true);
    expect((await hook('POST', path, { body: { n: 1 } })).status).toBe(200);
    expect((await api('DELETE', `/api/workflows/${id}/deploy`)).status).toBe(200);
    expect((await hook('POST', path, { body: { n: 1 } })).status).toBe(404);
    expect((await hook('POST', `nobody-${unique()}`, { body: {} })).status).toBe(404);
    expect(await hook('POST', 'bad%E0%A4%A', { body: {} })).toMatchObject({ status: 404, body: { error: 'No deployed workflow listens on webhook path "bad%E0%A4%A"' } });
    await deploy(id);
    // HEAD says whether the path listens and starts nothing; a method no webhook takes is a 405 naming those it takes.
    expect((await hook('HEAD', path)).status).toBe(200);
    const options = await hook('OPTIONS', path);
    expect([options.status, options.headers.get('allow'), options.body]).toEqual([
      405,
      'GET, HEAD, POST, PUT, PATCH, DELETE',
      { error: `Method OPTIONS not allowed on /api/webhooks/trigger/${path} (allowed: GET, HEAD, POST, PUT, PATCH, DELETE)` },
    ]);
    expect(await executions(id, 'webhook')).toHaveLength(1);
    expect((await api('DELETE', `/api/workflows/${id}`)).status).toBe(200);
    expect((await hook('POST', path, { body: { n: 1 } })).status).toBe(404);
  });

  it('a webhook switched off (hasActiveWebhook false) answers 404 and runs nothing; switched back on it runs again', async () => {
    const path = `switch-${unique()}`;
    const id = await workflow(starterWebhook(path, ''));
    await deploy(id);
    const off = await api<{ hasActiveWebhook: boolean; isDeployed: boolean }>('PATCH', `/api/workflows/${id}/deploy`, { hasActiveWebhook: false });
    expect(off.body).toMatchObject({ hasActiveWebhook: false, isDeployed: true });
    expect(await hook('POST', path, { body: { n: 1 } })).toMatchObject({ status: 404, body: { error: `No deployed workflow listens on webhook path "${path}"` } });
    expect((await hook('HEAD', path)).status).toBe(404);
    const bad = await api<{ error: string }>('PATCH', `/api/workflows/${id}/deploy`, { hasActiveWebhook: 'no' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('hasActiveWebhook must be true or false');
    expect((await api<{ hasActiveWebhook: boolean }>('PATCH', `/api/workflows/${id}/deploy`, { hasActiveWebhook: true })).body.hasActiveWebhook).toBe(true);
    const on = await hook('POST', path, { body: { n: 2 } });
    expect(on.status).toBe(200);
    const run = await finished((on.body as { executionId: string }).executionId);
    expect(run).toMatchObject({ status: 'succeeded', output: { result: { n: 4 } } });
    expect(await executions(id, 'webhook')).toHaveLength(1);
  });

  it('runs a delivery once however often it comes: an Idempotency-Key replayed 10 times at once', async () => {
    const path = `replay-${unique()}`;
    const id = await workflow(starterWebhook(path, 'k'));
    await deploy(id);
    const headers = { authorization: 'Bearer k', 'idempotency-key': `delivery-${unique()}` };
    const answers = await Promise.all(Array.from({ length: 10 }, () => hook('POST', path, { body: { n: 5 }, headers })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const ids = new Set(answers.map((a) => (a.body as { executionId: string }).executionId));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => (a.body as { duplicate?: boolean }).duplicate === true)).toHaveLength(9);
    await finished([...ids][0] ?? '');
    expect(await executions(id, 'webhook')).toHaveLength(1);
    // Another delivery id is another run.
    const next = await hook('POST', path, { body: { n: 6 }, headers: { ...headers, 'idempotency-key': `delivery-${unique()}` } });
    await finished((next.body as { executionId: string }).executionId);
    expect(await executions(id, 'webhook')).toHaveLength(2);
  });

  it('GitHub: X-Hub-Signature-256 checked over the raw body, X-GitHub-Delivery runs once', async () => {
    const path = `gh-${unique()}`;
    const id = await workflow(webhookBlock('github', { path, secret: 'gh-secret' }));
    await deploy(id);
    const raw = JSON.stringify({ action: 'opened', n: 3 });
    const signed = { 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${hmacHex('gh-secret', raw)}`, 'x-github-delivery': unique() };
    expect(await hook('POST', path, { body: raw, headers: { ...signed, 'x-hub-signature-256': `sha256=${hmacHex('other', raw)}` } })).toMatchObject({
      status: 401,
      body: { error: 'Invalid GitHub signature (X-Hub-Signature-256)' },
    });
    // Same bytes re-serialised differently do not match the signature.
    expect((await hook('POST', path, { body: JSON.stringify({ action: 'opened', n: 3 }, null, 1), headers: signed })).status).toBe(401);
    // The signature is checked before the body is read: a forged call is 401 whatever it holds; a
    // signed one that is not JSON is 400.
    expect((await hook('POST', path, { body: '{not json', headers: { ...signed, 'x-github-delivery': unique() } })).status).toBe(401);
    expect(await hook('POST', path, { body: '{not json', headers: { ...signed, 'x-hub-signature-256': `sha256=${hmacHex('gh-secret', '{not json')}`, 'x-github-delivery': unique() } })).toMatchObject({
      status: 400,
      body: { error: 'Request body must be valid JSON' },
    });
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await hook('POST', path, { body: raw, headers: signed }));
    expect(new Set(answers.map((a) => (a.body as { executionId: string }).executionId)).size).toBe(1);
    const run = await finished((answers[0]?.body as { executionId: string }).executionId);
    // The webhook block gives what started the run as its declared output `input`, like the starter.
    expect(run).toMatchObject({ status: 'succeeded', trigger: 'webhook', output: { result: { got: { action: 'opened', n: 3 }, hook: { action: 'opened', n: 3 } } } });
    expect(await executions(id, 'webhook')).toHaveLength(1);
  });

  it('Slack: url_verification is answered with its challenge and runs nothing; a stale signature is 401', async () => {
    const path = `slack-${unique()}`;
    const id = await workflow(webhookBlock('slack', { path, signingSecret: 'sl-secret' }));
    await deploy(id);
    const sign = (raw: string, ts: number) => ({ 'content-type': 'application/json', 'x-slack-request-timestamp': String(ts), 'x-slack-signature': `v0=${hmacHex('sl-secret', `v0:${ts}:${raw}`)}` });
    const now = Math.floor(Date.now() / 1000);
    const challenge = JSON.stringify({ type: 'url_verification', challenge: 'abc123' });
    expect(await hook('POST', path, { body: challenge, headers: sign(challenge, now) })).toMatchObject({ status: 200, body: { challenge: 'abc123' } });
    const event = JSON.stringify({ type: 'event_callback', event_id: `Ev${unique()}`, event: { text: 'hi' } });
    expect((await hook('POST', path, { body: event, headers: sign(event, now - 3600) })).status).toBe(401);
    const first = await hook('POST', path, { body: event, headers: sign(event, now) });
    const again = await hook('POST', path, { body: event, headers: sign(event, now) });
    expect(first.status).toBe(200);
    expect(again.body).toMatchObject({ duplicate: true, executionId: (first.body as { executionId: string }).executionId });
    await finished((first.body as { executionId: string }).executionId);
    expect(await executions(id, 'webhook')).toHaveLength(1);
  });

  it("answers with the Response block's status, headers and body when the webhook is set to", async () => {
    const path = `respond-${unique()}`;
    await deploy(await workflow(webhookBlock('generic', { path, responseMode: 'response' }, true)));
    const answer = await hook('POST', path, { body: { n: 7 } });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('x-answered-by')).toBe('weft');
    expect(answer.body).toEqual({ echoed: 7 });
  });

  it("a repeated delivery to a hook answering with its Response block gets the first delivery's status, headers and body, and runs nothing", async () => {
    const path = `respond-again-${unique()}`;
    const id = await workflow(webhookBlock('generic', { path, responseMode: 'response' }, true));
    await deploy(id);
    const headers = { 'idempotency-key': `delivery-${unique()}` };
    // Five at once: the repeats arrive while the first delivery's run is going and wait for its answer.
    const answers = await Promise.all(Array.from({ length: 5 }, () => hook('POST', path, { body: { n: 7 }, headers })));
    for (const a of answers) {
      expect(a.status).toBe(201);
      expect(a.headers.get('x-answered-by')).toBe('weft');
      expect(a.body).toEqual({ echoed: 7 });
    }
    // Once the run has ended: the same answer (the first delivery's, whatever this one carries).
    const later = await hook('POST', path, { body: { n: 8 }, headers });
    expect(later.status).toBe(201);
    expect(later.headers.get('x-answered-by')).toBe('weft');
    expect(later.body).toEqual({ echoed: 7 });
    expect(await executions(id, 'webhook')).toHaveLength(1);
    // Another delivery runs again.
    expect((await hook('POST', path, { body: { n: 9 }, headers: { 'idempotency-key': `delivery-${unique()}` } })).body).toEqual({ echoed: 9 });
    expect(await executions(id, 'webhook')).toHaveLength(2);
  });

  it('Stripe: a signature checked with the secret; an event redelivered runs once, with or without a secret', async () => {
    const signed = `stripe-${unique()}`;
    const open = `stripe-open-${unique()}`;
    const withSecret = await workflow(webhookBlock('generic', { path: signed, secret: 'whsec_test' }));
    const withoutSecret = await workflow(webhookBlock('generic', { path: open }));
    await deploy(withSecret);
    await deploy(withoutSecret);
    const event = JSON.stringify({ id: `evt_${unique()}`, object: 'event', type: 'charge.succeeded', n: 5 });
    const stripeHeaders = (secret: string, t = Math.floor(Date.now() / 1000)) => ({ 'content-type': 'application/json', 'stripe-signature': `t=${t},v1=${hmacHex(secret, `${t}.${event}`)}` });
    expect(await hook('POST', signed, { body: event, headers: stripeHeaders('whsec_other') })).toMatchObject({ status: 401, body: { error: 'Invalid Stripe signature' } });
    // A signature older than five minutes is refused too.
    expect((await hook('POST', signed, { body: event, headers: stripeHeaders('whsec_test', Math.floor(Date.now() / 1000) - 600) })).status).toBe(401);
    for (const [workflowId, path] of [[withSecret, signed], [withoutSecret, open]] as const) {
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await hook('POST', path, { body: event, headers: stripeHeaders('whsec_test') }));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(answers.map((a) => (a.body as { duplicate?: boolean }).duplicate === true)).toEqual([false, true, true]);
      const run = await finished((answers[0]?.body as { executionId: string }).executionId);
      expect(run).toMatchObject({ status: 'succeeded', output: { result: { hook: { n: 5 } } } });
      expect(await executions(workflowId, 'webhook')).toHaveLength(1);
    }
  });

  it("a starter in webhook mode answers with the Response block's status, headers and body when set to", async () => {
    const path = `starter-respond-${unique()}`;
    const id = await workflow((starter) => [
      ...starterWebhook(path, 'tok')(starter),
      set(starter, 'webhookResponseMode', 'response'),
      { type: 'addBlock', id: 'answer', blockType: 'response', name: 'Answer', position: { x: 700, y: 100 } },
      set('answer', 'dataMode', 'json'),
      set('answer', 'data', '{"doubled": <double.result.n>, "method": <start.method>}'),
      set('answer', 'status', '202'),
      set('answer', 'headers', [{ id: 'h0', cells: { Key: 'X-Answered-By', Value: 'starter' } }]),
      { type: 'addEdge', source: 'double', target: 'answer' },
    ]);
    await deploy(id);
    expect((await hook('PUT', path, { body: { n: 4 } })).status).toBe(401);
    const answer = await hook('PUT', path, { body: { n: 4 }, headers: { authorization: 'Bearer tok' } });
    expect(answer.status).toBe(202);
    expect(answer.headers.get('x-answered-by')).toBe('starter');
    expect(answer.body).toEqual({ doubled: 8, method: 'PUT' });
    const [run] = await executions(id, 'webhook');
    expect(run).toMatchObject({ status: 'succeeded', deploymentVersion: 1 });
  });
});

describe('webhook providers as the catalogue defines them (webhookConfig {path, secret, verifyToken})', () => {
  // Discord signs with the application's Ed25519 key; the webhook's secret is its public key (hex).
  const discordKeys = generateKeyPairSync('ed25519');
  const discordPublicHex = discordKeys.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');
  const discordSign = (ts: string, raw: string, key = discordKeys.privateKey) => ({
    'content-type': 'application/json',
    'x-signature-timestamp': ts,
    'x-signature-ed25519': sign(null, Buffer.from(ts + raw), key).toString('hex'),
  });
  const teamsSecret = Buffer.from('teams-shared-secret-bytes').toString('base64');
  const airtableSecret = Buffer.from('airtable-mac-secret-bytes').toString('base64');
  const b64Hmac = (key: string, raw: string) => createHmac('sha256', Buffer.from(key, 'base64')).update(raw).digest('base64');
  const now = () => String(Math.floor(Date.now() / 1000));

  interface ProviderCase {
    provider: string;
    secret: string;
    body: Record<string, unknown>;
    signed(raw: string): Record<string, string>;
    forged(raw: string): Record<string, string>;
    error: string;
    /** The check covers the body's bytes (all but Telegram's static secret token). */
    bodySigned: boolean;
  }
  const cases = (): ProviderCase[] => [
    {
      provider: 'telegram',
      secret: 'tg-secret',
      body: { update_id: Number.parseInt(unique(), 16), message: { text: 'hi' } },
      signed: () => ({ 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'tg-secret' }),
      forged: () => ({ 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'nope' }),
      error: 'Invalid Telegram secret token',
      bodySigned: false,
    },
    {
      provider: 'whatsapp',
      secret: 'wa-app-secret',
      body: { object: 'whatsapp_business_account', entry: [{ changes: [{ value: { messages: [{ id: `wamid.${unique()}`, text: { body: 'hi' } }] } }] }] },
      signed: (raw) => ({ 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${hmacHex('wa-app-secret', raw)}` }),
      forged: (raw) => ({ 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${hmacHex('other', raw)}` }),
      error: 'Invalid WhatsApp signature (X-Hub-Signature-256)',
      bodySigned: true,
    },
    {
      provider: 'discord',
      secret: discordPublicHex,
      body: { id: `interaction-${unique()}`, type: 2, data: { name: 'hello' } },
      signed: (raw) => discordSign(now(), raw),
      forged: (raw) => discordSign(now(), raw, generateKeyPairSync('ed25519').privateKey),
      error: 'Invalid Discord signature',
      bodySigned: true,
    },
    {
      provider: 'microsoftteams',
      secret: teamsSecret,
      body: { id: `activity-${unique()}`, type: 'message', text: 'hi' },
      signed: (raw) => ({ 'content-type': 'application/json', authorization: `HMAC ${b64Hmac(teamsSecret, raw)}` }),
      forged: (raw) => ({ 'content-type': 'application/json', authorization: `HMAC ${b64Hmac(airtableSecret, raw)}` }),
      error: 'Invalid Microsoft Teams HMAC',
      bodySigned: true,
    },
    {
      provider: 'airtable',
      secret: airtableSecret,
      body: { base: { id: 'appX' }, webhook: { id: 'achY' }, timestamp: new Date().toISOString() },
      // Airtable's notification has no id of its own: an Idempotency-Key names the delivery.
      signed: (raw) => ({ 'content-type': 'application/json', 'x-airtable-content-mac': `hmac-sha256=${createHmac('sha256', Buffer.from(airtableSecret, 'base64')).update(raw).digest('hex')}`, 'idempotency-key': 'airtable-1' }),
      forged: (raw) => ({ 'content-type': 'application/json', 'x-airtable-content-mac': `hmac-sha256=${hmacHex('other', raw)}` }),
      error: 'Invalid Airtable content MAC',
      bodySigned: true,
    },
    {
      // A Pub/Sub push: Pub/Sub's messageId names the delivery (it delivers at least once).
      provider: 'gmail',
      secret: 'gmail-push-token',
      body: { message: { data: Buffer.from('{"emailAddress":"me@example.com","historyId":"77"}').toString('base64'), messageId: 'pubsub-1', publishTime: new Date().toISOString() }, subscription: 'projects/p/subscriptions/gmail' },
      signed: () => ({ 'content-type': 'application/json', authorization: 'Bearer gmail-push-token' }),
      forged: () => ({ 'content-type': 'application/json', authorization: 'Bearer other-token' }),
      error: 'Invalid webhook token',
      bodySigned: false,
    },
  ];

  for (const c of cases()) {
    it(`${c.provider}: a forged call is 401 and runs nothing; a verified one runs, once however often it is delivered`, async () => {
      const path = `${c.provider}-${unique()}`;
      const id = await workflow(webhookBlock(c.provider, { path, secret: c.secret }));
      await deploy(id);
      const raw = JSON.stringify(c.body);
      expect(await hook('POST', path, { body: raw, headers: c.forged(raw) })).toMatchObject({ status: 401, body: { error: c.error } });
      // Signed over other bytes than the ones sent: refused too.
      if (c.bodySigned) expect((await hook('POST', path, { body: JSON.stringify(c.body, null, 1), headers: c.signed(raw) })).status).toBe(401);
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await hook('POST', path, { body: raw, headers: c.signed(raw) }));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(answers.map((a) => (a.body as { duplicate?: boolean }).duplicate === true)).toEqual([false, true, true]);
      const run = await finished((answers[0]?.body as { executionId: string }).executionId);
      expect(run).toMatchObject({ status: 'succeeded', trigger: 'webhook', output: { result: { hook: c.body } } });
      expect(await executions(id, 'webhook')).toHaveLength(1);
    });
  }

  it('whatsapp: the GET subscription handshake answers hub.challenge with the verify token, 401 with another, and runs nothing', async () => {
    const path = `wa-verify-${unique()}`;
    const id = await workflow(webhookBlock('whatsapp', { path, secret: 'wa-app-secret', verifyToken: 'wa-verify' }));
    await deploy(id);
    const subscribe = (token: string) => `${path}?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=1158201444`;
    expect(await hook('GET', subscribe('wa-verify'))).toMatchObject({ status: 200, body: 1158201444 });
    expect(await hook('GET', subscribe('wrong'))).toMatchObject({ status: 401, body: { error: 'Invalid WhatsApp verify token' } });
    expect(await executions(id, 'webhook')).toHaveLength(0);
  });

  it("gmail: the push subscription's URL carries the token as ?token= (kept out of the run's input); a wrong one is 401 and runs nothing", async () => {
    const path = `gmail-query-${unique()}`;
    const id = await workflow(webhookBlock('gmail', { path, secret: 'gmail-query-token' }));
    await deploy(id);
    const push = { message: { data: Buffer.from('{"historyId":"1"}').toString('base64'), messageId: `pubsub-${unique()}` }, subscription: 'projects/p/subscriptions/s' };
    expect(await hook('POST', `${path}?token=wrong`, { body: push })).toMatchObject({ status: 401, body: { error: 'Invalid webhook token' } });
    const ran = await hook('POST', `${path}?token=gmail-query-token`, { body: push });
    expect(ran.status).toBe(200);
    expect(await finished((ran.body as { executionId: string }).executionId)).toMatchObject({ status: 'succeeded', input: { query: { token: '[REDACTED]' } } });
  });

  it('discord: a signed PING is answered {type: 1} and runs nothing; an unsigned PING is 401, and so is a call signed an hour ago', async () => {
    const path = `discord-ping-${unique()}`;
    const id = await workflow(webhookBlock('discord', { path, secret: discordPublicHex }));
    await deploy(id);
    const ping = JSON.stringify({ id: 'ping', type: 1 });
    expect(await hook('POST', path, { body: ping, headers: discordSign(now(), ping) })).toMatchObject({ status: 200, body: { type: 1 } });
    expect((await hook('POST', path, { body: ping, headers: { 'content-type': 'application/json' } })).status).toBe(401);
    // A signed call whose signed timestamp is an hour old is a replay: 401 whatever it carries.
    const old = JSON.stringify({ id: `old-${unique()}`, type: 2, data: { name: 'hi' } });
    expect(await hook('POST', path, { body: old, headers: discordSign(String(Number(now()) - 3600), old) })).toMatchObject({
      status: 401,
      body: { error: 'Stale Discord request: X-Signature-Timestamp is more than 300 s from now' },
    });
    expect(await executions(id, 'webhook')).toHaveLength(0);
  });
});

describe('trigger blocks the starter does not lead to start runs of their own', () => {
  it('a call to a webhook block\'s path runs that block and what follows it, not the starter\'s blocks; the API key still starts at the starter', async () => {
    const path = `own-entry-${unique()}`;
    const id = await workflow((starter) => [
      { type: 'addBlock', id: 'manual', blockType: 'function', name: 'Manual', position: { x: 400, y: 0 } },
      set('manual', 'code', 'return "manual"'),
      { type: 'addEdge', source: starter, target: 'manual' },
      { type: 'addBlock', id: 'hook', blockType: 'webhook', name: 'Hook', position: { x: 0, y: 300 } },
      set('hook', 'webhookProvider', 'generic'),
      set('hook', 'webhookConfig', { path, secret: 'entry' }),
      { type: 'addBlock', id: 'echo', blockType: 'function', name: 'Echo', position: { x: 400, y: 300 } },
      // `<start.…>` reads what started the run: here the webhook block's input, as a starter's.
      set('echo', 'code', 'return { tenfold: <hook.input.body.n> * 10, same: <start.body.n>, method: <hook.input.method> }'),
      { type: 'addEdge', source: 'hook', target: 'echo' },
    ]);
    const { apiKey } = await deploy(id);
    expect((await hook('POST', path, { body: { n: 4 } })).status).toBe(401);
    const called = await hook('PATCH', path, { body: { n: 4 }, headers: { authorization: 'Bearer entry' } });
    expect(called.status).toBe(200);
    const run = await finished((called.body as { executionId: string }).executionId);
    expect(run).toMatchObject({ status: 'succeeded', trigger: 'webhook', output: { result: { tenfold: 40, same: 4, method: 'PATCH' } } });
    expect(ranBlocks(run)).toEqual(['hook', 'echo']);
    // A rerun from Echo starts at the webhook block too, its earlier output reused.
    const rerun = await api<{ success: boolean; output: unknown; logs: Array<{ blockId: string }> }>('POST', `/api/executions/${run.executionId}/rerun`, { fromBlockId: 'echo' });
    expect(rerun.body).toMatchObject({ success: true, output: { result: { tenfold: 40, same: 4, method: 'PATCH' } } });
    expect(rerun.body.logs.map((l) => l.blockId).sort()).toEqual(['echo', 'hook']);
    // The deployment's API key starts at the starter, as before.
    const byKey = await viaApiKey(id, apiKey);
    expect(byKey.status).toBe(200);
    expect(byKey.body.output).toEqual({ result: 'manual', stdout: '' });
  });

  it("a schedule block's schedule runs that block and what follows it", async () => {
    const id = await workflow((starter) => [
      { type: 'addBlock', id: 'manual', blockType: 'function', name: 'Manual', position: { x: 400, y: 0 } },
      set('manual', 'code', 'return "manual"'),
      { type: 'addEdge', source: starter, target: 'manual' },
      { type: 'addBlock', id: 'every', blockType: 'schedule', name: 'Every Ten', position: { x: 0, y: 300 } },
      set('every', 'scheduleType', 'minutes'),
      set('every', 'minutesInterval', '10s'),
      { type: 'addBlock', id: 'tick', blockType: 'function', name: 'Tick', position: { x: 400, y: 300 } },
      set('tick', 'code', 'return "tick"'),
      { type: 'addEdge', source: 'every', target: 'tick' },
    ]);
    await deploy(id);
    try {
      await expect.poll(async () => (await executions(id, 'schedule')).length, { timeout: 60_000, interval: 500 }).toBeGreaterThanOrEqual(1);
      const run = await finished((await executions(id, 'schedule'))[0]?.executionId ?? '');
      expect(run).toMatchObject({ status: 'succeeded', trigger: 'schedule', deploymentVersion: 1, output: { result: 'tick' } });
      expect(ranBlocks(run)).toEqual(['every', 'tick']);
      // A run the schedule started kept the state it ran: it reruns from a block, at its schedule
      // block again, with the deployed version (the draft changed since) and its earlier outputs.
      await api('POST', `/api/workflows/${id}/commands`, { commands: [set('tick', 'code', 'return "draft"')] });
      const rerun = await api<{ success: boolean; output: unknown; logs: Array<{ blockId: string }>; metadata: { executionId: string } }>('POST', `/api/executions/${run.executionId}/rerun`, { fromBlockId: 'tick' });
      expect(rerun.status, JSON.stringify(rerun.body)).toBe(200);
      expect(rerun.body).toMatchObject({ success: true, output: { result: 'tick' } });
      expect(rerun.body.logs.map((l) => l.blockId).sort()).toEqual(['every', 'tick']);
      expect((await api<Execution & { rerunOf: string }>('GET', `/api/executions/${rerun.body.metadata.executionId}`)).body).toMatchObject({ rerunOf: run.executionId, deploymentVersion: 1 });
    } finally {
      expect((await api('DELETE', `/api/workflows/${id}/deploy`)).status).toBe(200);
    }
  });
});

describe('a workflow with several webhooks', () => {
  it('every webhook block listens on its own path and starts its run at its own block; a redeploy and an undeploy replace and free them all; a path another workflow holds is a 409 naming block, field and path', async () => {
    const [pa, pb, pa2] = [`multi-a-${unique()}`, `multi-b-${unique()}`, `multi-a2-${unique()}`];
    /** A webhook block `id` (provider, path, secret) → function `<id>-fn` answering which hook ran and its body's n. */
    const hookWith = (id: string, provider: string, config: Record<string, unknown>): Command[] => [
      { type: 'addBlock', id, blockType: 'webhook', name: `Hook ${id}`, position: { x: 0, y: id === 'ha' ? 300 : 600 } },
      set(id, 'webhookProvider', provider),
      set(id, 'webhookConfig', config),
      { type: 'addBlock', id: `${id}-fn`, blockType: 'function', name: `Fn ${id}`, position: { x: 400, y: id === 'ha' ? 300 : 600 } },
      set(`${id}-fn`, 'code', `return { hook: "${id}", n: <${`hook${id}`}.input.body.n> }`),
      { type: 'addEdge', source: id, target: `${id}-fn` },
    ];
    const id = await workflow((starter) => [
      { type: 'addBlock', id: 'manual', blockType: 'function', name: 'Manual', position: { x: 400, y: 0 } },
      set('manual', 'code', 'return "manual"'),
      { type: 'addEdge', source: starter, target: 'manual' },
      ...hookWith('ha', 'generic', { path: pa, secret: 'tok-a' }),
      ...hookWith('hb', 'github', { path: pb, secret: 'gh-b' }),
    ]);
    await deploy(id);
    const ran = async (answer: { status: number; body: unknown }) => {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const run = await finished((answer.body as { executionId: string }).executionId);
      return { output: run.output, blocks: ranBlocks(run) };
    };
    expect(await ran(await hook('POST', pa, { body: { n: 1 }, headers: { authorization: 'Bearer tok-a' } }))).toEqual({ output: { result: { hook: 'ha', n: 1 }, stdout: '' }, blocks: ['ha', 'ha-fn'] });
    const raw = JSON.stringify({ n: 2 });
    const gh = { 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${hmacHex('gh-b', raw)}`, 'x-github-delivery': unique() };
    expect(await ran(await hook('POST', pb, { body: raw, headers: gh }))).toEqual({ output: { result: { hook: 'hb', n: 2 }, stdout: '' }, blocks: ['hb', 'hb-fn'] });
    // Each path is checked the way its own block's provider signs: the generic token does not open the GitHub hook.
    expect((await hook('POST', pb, { body: raw, headers: { authorization: 'Bearer tok-a' } })).status).toBe(401);

    // Another workflow claiming one of these paths is refused at deploy and listens on none of its own.
    const free = `multi-free-${unique()}`;
    const other = await workflow(() => [...hookWith('ha', 'generic', { path: free }), ...hookWith('hb', 'generic', { path: pb })]);
    const refused = await api<Record<string, unknown>>('POST', `/api/workflows/${other}/deploy`, {});
    expect(refused).toEqual({
      status: 409,
      body: { error: `Hook hb (webhookConfig): Webhook path "${pb}" is already used by another workflow`, field: 'webhookConfig', path: pb, blockId: 'hb', blockName: 'Hook hb' },
    });
    expect((await hook('POST', free, { body: {} })).status).toBe(404);

    // A redeploy without the GitHub block and with the first hook moved: both old paths are free, the new one runs.
    const edited = await api('POST', `/api/workflows/${id}/commands`, { commands: [{ type: 'removeBlock', id: 'hb' }, { type: 'removeBlock', id: 'hb-fn' }, set('ha', 'webhookConfig', { path: pa2, secret: 'tok-a' })] });
    expect(edited.status).toBe(200);
    await deploy(id);
    for (const gone of [pa, pb]) expect((await hook('POST', gone, { body: { n: 3 }, headers: { authorization: 'Bearer tok-a' } })).status).toBe(404);
    expect((await ran(await hook('POST', pa2, { body: { n: 3 }, headers: { authorization: 'Bearer tok-a' } }))).output).toEqual({ result: { hook: 'ha', n: 3 }, stdout: '' });
    // The freed path can now be another workflow's.
    await deploy(other);
    expect((await ran(await hook('POST', pb, { body: { n: 4 } }))).blocks).toEqual(['hb', 'hb-fn']);

    expect((await api('DELETE', `/api/workflows/${id}/deploy`)).status).toBe(200);
    expect((await hook('POST', pa2, { body: {}, headers: { authorization: 'Bearer tok-a' } })).status).toBe(404);
    expect((await api('DELETE', `/api/workflows/${other}/deploy`)).status).toBe(200);
    for (const gone of [free, pb]) expect((await hook('HEAD', gone)).status).toBe(404);
    expect((await executions(id, 'webhook')).length).toBe(3);
  });

  it("a delivery id is one hook's: two Telegram bots of one workflow each run their update_id 1 once", async () => {
    const [p1, p2] = [`bot-one-${unique()}`, `bot-two-${unique()}`];
    const id = await workflow(() => [
      { type: 'addBlock', id: 'bot1', blockType: 'webhook', name: 'Bot One', position: { x: 0, y: 300 } },
      set('bot1', 'webhookProvider', 'telegram'),
      set('bot1', 'webhookConfig', { path: p1, token: 'one' }),
      { type: 'addBlock', id: 'bot2', blockType: 'webhook', name: 'Bot Two', position: { x: 0, y: 600 } },
      set('bot2', 'webhookProvider', 'telegram'),
      set('bot2', 'webhookConfig', { path: p2, token: 'two' }),
    ]);
    await deploy(id);
    const update = { update_id: 1, message: { text: 'hi' } };
    const send = (path: string, token: string) => hook('POST', path, { body: update, headers: { 'x-telegram-bot-api-secret-token': token } });
    const [first1, first2] = [await send(p1, 'one'), await send(p2, 'two')];
    expect([first1.status, first2.status, first1.body, first2.body]).toMatchObject([200, 200, { ok: true }, { ok: true }]);
    expect((first1.body as { executionId: string }).executionId).not.toBe((first2.body as { executionId: string }).executionId);
    // Each bot's redelivery is a duplicate of its own first delivery.
    expect((await send(p1, 'one')).body).toEqual({ ok: true, executionId: (first1.body as { executionId: string }).executionId, duplicate: true });
    expect((await send(p2, 'two')).body).toEqual({ ok: true, executionId: (first2.body as { executionId: string }).executionId, duplicate: true });
    expect(await executions(id, 'webhook')).toHaveLength(2);
    expect((await api('DELETE', `/api/workflows/${id}/deploy`)).status).toBe(200);
  });
});

describe('the user a deployed run acts as', () => {
  /** A workspace owner and a developer with write access to it, each with their own DEPLOY_KEY value. */
  async function ownerAndDeveloper() {
    const [owner, dev] = await Promise.all([createAccount('Deploy Owner'), createAccount('Deploy Developer')]);
    const spaces = await api<{ workspaces: Array<{ id: string }> }>('GET', '/api/workspaces', undefined, { cookie: owner.cookie });
    const members = `/api/workspaces/${spaces.body.workspaces[0]?.id ?? ''}/members`;
    expect((await api('POST', members, { email: dev.email, permission: 'write' }, { cookie: owner.cookie })).status).toBe(201);
    expect((await api('POST', '/api/environment', { variables: { DEPLOY_KEY: 'owner-value' } }, { cookie: owner.cookie })).status).toBe(200);
    expect((await api('POST', '/api/environment', { variables: { DEPLOY_KEY: 'developer-value' } }, { cookie: dev.cookie })).status).toBe(200);
    return { owner, dev, members };
  }
  /** starter → function "Key" answering the acting user's {{DEPLOY_KEY}}, upper-cased (a function's result that is an environment value is [REDACTED]). */
  const readsKey = (starter: string): Command[] => [
    { type: 'addBlock', id: 'key', blockType: 'function', name: 'Key', position: { x: 400, y: 100 } },
    set('key', 'code', 'return "{{DEPLOY_KEY}}".toUpperCase()'),
    { type: 'addEdge', source: starter, target: 'key' },
  ];

  it("a webhook run and an API-key run of one deployment act as its deployer and see the deployer's {{KEY}}, the webhook's secret {{KEY}} too; the owner's once the deployer is read-only", async () => {
    const { owner, dev, members } = await ownerAndDeveloper();
    const path = `actor-${unique()}`;
    const id = await workflow(
      (starter) => [
        set(starter, 'startWorkflow', 'webhook'),
        set(starter, 'webhookPath', path),
        set(starter, 'webhookSecret', '{{DEPLOY_KEY}}'),
        ...readsKey(starter),
      ],
      owner.cookie,
    );
    const { apiKey } = await deploy(id, dev.cookie);

    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const seen = async (secret: string, notSecret: string) => {
      // The secret is the acting user's value: the reference as typed and the other user's value are refused.
      for (const wrong of ['{{DEPLOY_KEY}}', notSecret]) expect((await hook('POST', path, { body: {}, headers: bearer(wrong) })).status).toBe(401);
      const called = await hook('POST', path, { body: {}, headers: bearer(secret) });
      expect(called.status).toBe(200);
      const byHook = await finished((called.body as { executionId: string }).executionId, owner.cookie);
      const byKey = await viaApiKey(id, apiKey);
      expect(byKey.status).toBe(200);
      return [byHook.output, byKey.body.output];
    };
    const developer = { result: 'DEVELOPER-VALUE', stdout: '' };
    expect(await seen('developer-value', 'owner-value')).toEqual([developer, developer]);
    // The deployer may no longer deploy there: every trigger acts as the workspace owner.
    expect((await api('PATCH', `${members}/${dev.userId}`, { permission: 'read' }, { cookie: owner.cookie })).status).toBe(200);
    const ownerValue = { result: 'OWNER-VALUE', stdout: '' };
    expect(await seen('owner-value', 'developer-value')).toEqual([ownerValue, ownerValue]);
  });

  it("a schedule's runs act as the deployer, and as the owner once the deployer is removed from the workspace", async () => {
    const { owner, dev, members } = await ownerAndDeveloper();
    const id = await workflow(
      (starter) => [
        set(starter, 'startWorkflow', 'schedule'),
        set(starter, 'scheduleType', 'minutes'),
        set(starter, 'minutesInterval', '10s'),
        ...readsKey(starter),
      ],
      owner.cookie,
    );
    await deploy(id, dev.cookie);
    const as = { cookie: owner.cookie };
    const outputsAfter = async (since: number) => {
      const out = await api<{ executions: Array<Execution & { startedAt: string }> }>('GET', `/api/workflows/${id}/executions?trigger=schedule`, undefined, as);
      return out.body.executions.filter((e) => e.status === 'succeeded' && Date.parse(e.startedAt) > since).map((e) => (e.output as { result?: unknown } | null)?.result);
    };
    try {
      await expect.poll(() => outputsAfter(0), { timeout: 60_000, interval: 500 }).toContain('DEVELOPER-VALUE');
      expect((await api('DELETE', `${members}/${dev.userId}`, undefined, as)).status).toBe(200);
      // The schedule is synced from the member event; a run fired a little later acts as the owner.
      const removedAt = Date.now();
      await expect.poll(() => outputsAfter(removedAt), { timeout: 60_000, interval: 500 }).toContain('OWNER-VALUE');
    } finally {
      expect((await api('DELETE', `/api/workflows/${id}/deploy`, undefined, as)).status).toBe(200);
    }
  });
});

describe('workflow variables in deployed runs', () => {
  it('a deployed run (API key, webhook) reads the variables deployed with it; a draft change flags needsRedeployment and a revert brings them back', async () => {
    const path = `vars-${unique()}`;
    const id = await workflow((starter) => [
      set(starter, 'startWorkflow', 'webhook'),
      set(starter, 'webhookPath', path),
      { type: 'addVariable', id: 'limit-var', name: 'limit', variableType: 'number', value: 3 },
      { type: 'addBlock', id: 'read', blockType: 'function', name: 'Read', position: { x: 400, y: 100 } },
      set('read', 'code', 'return <variable.limit> * 2'),
      { type: 'addEdge', source: starter, target: 'read' },
    ]);
    const { apiKey } = await deploy(id);
    const deployedOutput = { result: 6, stdout: '' };
    const byKey = await viaApiKey(id, apiKey);
    expect(byKey.status, JSON.stringify(byKey.body)).toBe(200);
    expect(byKey.body).toMatchObject({ success: true, output: deployedOutput });
    const called = await hook('POST', path, { body: {} });
    expect(called.status, JSON.stringify(called.body)).toBe(200);
    expect((await finished((called.body as { executionId: string }).executionId)).output).toEqual(deployedOutput);

    // The draft's value changes: the deployment still runs its own, and the status says to redeploy.
    const edited = await api('POST', `/api/workflows/${id}/commands`, { commands: [{ type: 'updateVariable', id: 'limit-var', value: 5 }] });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const deployment = () => api<{ needsRedeployment: boolean }>('GET', `/api/workflows/${id}/deploy`);
    expect((await deployment()).body.needsRedeployment).toBe(true);
    expect((await viaApiKey(id, apiKey)).body).toMatchObject({ success: true, output: deployedOutput });

    // Revert to deployed: the deployed value is the draft's again, nothing left to redeploy.
    expect((await api('POST', `/api/workflows/${id}/revert-to-deployed`)).status).toBe(200);
    const variables = await api<{ data: Record<string, { name: string; value: unknown }> }>('GET', `/api/workflows/${id}/variables`);
    expect(Object.values(variables.body.data).map((v) => [v.name, v.value])).toEqual([['limit', 3]]);
    expect((await deployment()).body.needsRedeployment).toBe(false);
  });
});

describe('deploy checks', () => {
  it('refuses a workflow that would not run, listing each problem with its block and field', async () => {
    const id = await workflow((starter) => [
      set(starter, 'startWorkflow', 'schedule'),
      set(starter, 'scheduleType', 'minutes'),
      set(starter, 'minutesInterval', '5s'),
      { type: 'addBlock', id: 'fn', blockType: 'function', name: 'Broken Fn', position: { x: 400, y: 100 } },
      set('fn', 'code', 'return <nosuch.value>'),
      { type: 'addEdge', source: starter, target: 'fn' },
    ]);
    const refused = await api<{ error: string; problems: Array<{ blockName: string; field: string; message: string }> }>('POST', `/api/workflows/${id}/deploy`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^The workflow cannot be deployed: /);
    expect(refused.body.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ blockName: 'Broken Fn', field: 'code', message: 'Reference <nosuch.value> names no block' }),
        expect.objectContaining({ field: 'minutesInterval', message: 'Run Every (minutes) must be at least 10 seconds' }),
      ]),
    );
    expect((await api<{ isDeployed: boolean }>('GET', `/api/workflows/${id}/deploy`)).body.isDeployed).toBe(false);
  });

  it('refuses s → a → b → a, which every run refuses, naming the blocks on the cycle in the runner\'s words', async () => {
    const id = await workflow((starter) => [
      { type: 'addBlock', id: 'a', blockType: 'function', name: 'Fetch', position: { x: 300, y: 100 } },
      set('a', 'code', 'return 1'),
      { type: 'addBlock', id: 'b', blockType: 'function', name: 'Parse', position: { x: 600, y: 100 } },
      set('b', 'code', 'return 2'),
      { type: 'addEdge', source: starter, target: 'a' },
      { type: 'addEdge', source: 'a', target: 'b' },
      { type: 'addEdge', source: 'b', target: 'a' },
    ]);
    const refused = await api<{ error: string; problems: Array<{ blockName: string; field: string; message: string }> }>('POST', `/api/workflows/${id}/deploy`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('The workflow cannot be deployed: Fetch (edges): The workflow has a cycle outside a loop block: Fetch → Parse → Fetch');
    expect(refused.body.problems).toEqual([expect.objectContaining({ blockName: 'Fetch', field: 'edges', message: 'The workflow has a cycle outside a loop block: Fetch → Parse → Fetch' })]);
    expect((await api<{ isDeployed: boolean }>('GET', `/api/workflows/${id}/deploy`)).body.isDeployed).toBe(false);
  });

  it("refuses a loop's collection of more than 50 items and a reference to a disabled block, naming block and field", async () => {
    const id = await workflow((starter) => [
      { type: 'addBlock', id: 'each', blockType: 'loop', name: 'Each', position: { x: 300, y: 100 } },
      { type: 'updateLoop', id: 'each', loopType: 'forEach', forEachItems: JSON.stringify(Array.from({ length: 51 }, (_, i) => i)) },
      { type: 'addBlock', id: 'body', blockType: 'function', name: 'Body', position: { x: 40, y: 60 }, parentId: 'each' },
      set('body', 'code', 'return <loop.currentItem>'),
      { type: 'addEdge', source: starter, target: 'each' },
      { type: 'addEdge', source: 'each', target: 'body', sourceHandle: 'loop-start-source' },
      { type: 'addBlock', id: 'off', blockType: 'function', name: 'Off', position: { x: 300, y: 400 } },
      set('off', 'code', 'return 1'),
      { type: 'toggleEnabled', id: 'off' },
      { type: 'addBlock', id: 'after', blockType: 'function', name: 'After', position: { x: 700, y: 100 } },
      set('after', 'code', 'return <off.result>'),
      { type: 'addEdge', source: starter, target: 'off' },
      { type: 'addEdge', source: 'each', target: 'after' },
      { type: 'addEdge', source: 'off', target: 'after' },
    ]);
    const refused = await api<{ error: string; problems: unknown[] }>('POST', `/api/workflows/${id}/deploy`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.problems).toEqual([
      { blockId: 'each', blockName: 'Each', field: 'collection', message: 'The forEach items (collection) hold 51 entries; a loop runs at most 50 iterations' },
      { blockId: 'after', blockName: 'After', field: 'code', message: 'Reference <off.result> points at Off, which is disabled and does not run' },
    ]);
  });
});

describe('deploy checks read paths and names as calls and runs do', () => {
  it('refuses a ".." webhook path segment and a missing <agent-2.x> or <résumé.x>, naming block and field; with the blocks there and a plain path it deploys', async () => {
    const problems = (prompt: string) => [
      { type: 'addBlock', id: 'writer', blockType: 'function', name: 'Writer', position: { x: 700, y: 100 } },
      set('writer', 'code', `return ${JSON.stringify(prompt)}`),
      { type: 'addBlock', id: 'say', blockType: 'response', name: 'Say', position: { x: 1000, y: 100 } },
      set('say', 'data', prompt),
      { type: 'addEdge', source: 'writer', target: 'say' },
    ];
    const prompt = '<agent-2.result> and <résumé.result>';
    const refusedId = await workflow((starter) => [
      set(starter, 'startWorkflow', 'webhook'),
      set(starter, 'webhookPath', `hooks/../orders-${randomUUID()}`),
      ...problems(prompt),
      { type: 'addEdge', source: starter, target: 'writer' },
    ]);
    const refused = await api<{ error: string; problems: Array<{ blockName: string; field: string; message: string }> }>('POST', `/api/workflows/${refusedId}/deploy`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.problems.map((p) => [p.blockName, p.field, p.message])).toEqual([
      ['Say', 'data', 'Reference <agent-2.result> names no block'],
      ['Say', 'data', 'Reference <résumé.result> names no block'],
      ['Start', 'webhookPath', expect.stringMatching(/^Webhook Path "hooks\/\.\.\/orders-[^"]+" cannot have a "\.\." segment: browsers and HTTP clients remove/) as unknown],
    ]);
    expect((await api<{ isDeployed: boolean }>('GET', `/api/workflows/${refusedId}/deploy`)).body.isDeployed).toBe(false);

    const deployedId = await workflow((starter) => [
      set(starter, 'startWorkflow', 'webhook'),
      set(starter, 'webhookPath', `hooks/orders-${randomUUID()}`),
      { type: 'addBlock', id: 'dash', blockType: 'function', name: 'Agent-2', position: { x: 300, y: 100 } },
      set('dash', 'code', 'return 1'),
      { type: 'addBlock', id: 'cv', blockType: 'function', name: 'Résumé', position: { x: 500, y: 100 } },
      set('cv', 'code', 'return 2'),
      ...problems(prompt),
      { type: 'addEdge', source: starter, target: 'dash' },
      { type: 'addEdge', source: 'dash', target: 'cv' },
      { type: 'addEdge', source: 'cv', target: 'writer' },
    ]);
    expect((await api('POST', `/api/workflows/${deployedId}/deploy`, {})).status).toBe(200);
  });
});

describe("a Response block's status through the API", () => {
  it('a status of 150 (a reference the deploy check leaves to the run) gets an answer naming Status Code, never an interim one the caller waits on', async () => {
    const id = await workflow((starter) => [
      { type: 'addBlock', id: 'answer', blockType: 'response', name: 'Answer', position: { x: 400, y: 100 } },
      set('answer', 'dataMode', 'json'),
      set('answer', 'data', '{"ok": true}'),
      set('answer', 'status', '<start.input.code>'),
      { type: 'addEdge', source: starter, target: 'answer' },
    ]);
    const { apiKey } = await deploy(id);
    const interim = await viaApiKey(id, apiKey, { code: 150 });
    expect(interim.status).toBeGreaterThanOrEqual(200);
    expect(interim.body).toMatchObject({ success: false, error: 'Answer: Status Code must be a whole number from 200 to 599 (got 150)' });
    const final = await viaApiKey(id, apiKey, { code: 201 });
    expect(final.status).toBe(201);
    expect(final.body).toEqual({ ok: true });
  });
});

describe('schedules on Temporal through the gateway', () => {
  it('a 10 s schedule fires deployed runs; GET shows the next five; pause, resume; undeploy removes it', async () => {
    const id = await workflow((starter) => [
      set(starter, 'startWorkflow', 'schedule'),
      set(starter, 'scheduleType', 'minutes'),
      set(starter, 'minutesInterval', '10s'),
      { type: 'addBlock', id: 'tick', blockType: 'function', name: 'Tick', position: { x: 400, y: 100 } },
      set('tick', 'code', 'return "tick"'),
      { type: 'addEdge', source: starter, target: 'tick' },
    ]);
    // Not deployed yet: no schedule, an empty list (not an error); nothing to pause.
    expect(await api('GET', `/api/schedules?workflowId=${id}`)).toEqual({ status: 200, body: { schedules: [] } });
    expect(await api('POST', `/api/schedules/${id}/pause`)).toEqual({ status: 404, body: { error: `Workflow ${id} has no schedule` } });
    await deploy(id);
    // The deploy has answered: its schedule is there at once.
    expect((await api('GET', `/api/schedules?workflowId=${id}`)).status).toBe(200);
    const view = (await api<ScheduleView>('GET', `/api/schedules?workflowId=${id}`)).body;
    expect(view).toMatchObject({ id, workflowId: id, cronExpression: '@every 10s', timezone: 'UTC', status: 'active', scheduleType: 'minutes', deploymentVersion: 1 });
    expect(view.nextRunAt).toHaveLength(5);
    const times = view.nextRunAt.map((t) => Date.parse(t));
    for (let i = 1; i < times.length; i++) expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBe(10_000);

    // It fires: a schedule run of deployment version 1 (polled; a 10 s interval fires within 60 s however loaded).
    await expect.poll(async () => (await executions(id, 'schedule')).length, { timeout: 60_000, interval: 500 }).toBeGreaterThanOrEqual(1);
    const fired = (await executions(id, 'schedule'))[0];
    const done = await finished(fired?.executionId ?? '');
    expect(done, JSON.stringify(done)).toMatchObject({ error: null });
    expect(done).toMatchObject({ trigger: 'schedule', deploymentVersion: 1, status: 'succeeded', output: { result: 'tick' } });
    await expect.poll(async () => (await api<ScheduleView>('GET', `/api/schedules?workflowId=${id}`)).body.lastRunAt, { timeout: 30_000 }).not.toBeNull();

    const paused = await api<ScheduleView>('POST', `/api/schedules/${id}/pause`);
    expect(paused.body).toMatchObject({ status: 'paused', nextRunAt: [] });
    const resumed = await api<ScheduleView>('POST', `/api/schedules/${id}/resume`);
    expect(resumed.body.status).toBe('active');
    expect(resumed.body.nextRunAt).toHaveLength(5);

    const stranger = await createAccount('Schedule Stranger');
    expect([403, 404]).toContain((await api('POST', `/api/schedules/${id}/pause`, undefined, { cookie: stranger.cookie })).status);
    expect((await api('GET', '/api/schedules')).body).toEqual({ error: 'workflowId is required' });

    expect((await api('DELETE', `/api/workflows/${id}/deploy`)).status).toBe(200);
    expect(await api('GET', `/api/schedules?workflowId=${id}`)).toEqual({ status: 200, body: { schedules: [] } });
  });

  it('several schedule triggers: the starter and each schedule block get a schedule of their own, each firing its own run; pause one or all; a redeploy removes the dropped one', async () => {
    const id = await workflow((starter) => [
      set(starter, 'startWorkflow', 'schedule'),
      set(starter, 'scheduleType', 'minutes'),
      set(starter, 'minutesInterval', '10s'),
      { type: 'addBlock', id: 'fromStart', blockType: 'function', name: 'From Start', position: { x: 400, y: 0 } },
      set('fromStart', 'code', 'return "starter"'),
      { type: 'addEdge', source: starter, target: 'fromStart' },
      { type: 'addBlock', id: 'every', blockType: 'schedule', name: 'Every Ten', position: { x: 0, y: 300 } },
      set('every', 'scheduleType', 'minutes'),
      set('every', 'minutesInterval', '10s'),
      { type: 'addBlock', id: 'fromEvery', blockType: 'function', name: 'From Every', position: { x: 400, y: 300 } },
      set('fromEvery', 'code', 'return "block"'),
      { type: 'addEdge', source: 'every', target: 'fromEvery' },
      { type: 'addBlock', id: 'nightly', blockType: 'schedule', name: 'Nightly', position: { x: 0, y: 600 } },
      set('nightly', 'scheduleType', 'daily'),
      set('nightly', 'dailyTime', '02:00'),
      set('nightly', 'timezone', 'Asia/Tokyo'),
    ]);
    const starter = await starterOf(id);
    await deploy(id);
    try {
      const got = (await api<WorkflowSchedules>('GET', `/api/schedules?workflowId=${id}`)).body;
      // The first (the starter's) at the top level under the workflow's id, as for one schedule.
      expect(got).toMatchObject({ id, workflowId: id, blockId: starter, cronExpression: '@every 10s', status: 'active' });
      expect(got.schedules.map((v) => [v.id, v.blockId, v.cronExpression, v.timezone, v.nextRunAt.length])).toEqual([
        [`${id}:${starter}`, starter, '@every 10s', 'UTC', 5],
        [`${id}:every`, 'every', '@every 10s', 'UTC', 5],
        [`${id}:nightly`, 'nightly', '0 2 * * *', 'Asia/Tokyo', 5],
      ]);
      for (const t of got.schedules[2]?.nextRunAt ?? []) expect(t).toMatch(/T17:00:00/);

      // Both 10 s schedules fire, each a run from its own block (same due times, distinct runs).
      const outputs = async () => {
        const done = await Promise.all((await executions(id, 'schedule')).map((e) => api<Execution>('GET', `/api/executions/${e.executionId}`)));
        return [...new Set(done.filter((r) => r.body.status === 'succeeded').map((r) => (r.body.output as { result?: string } | null)?.result))].sort();
      };
      await expect.poll(outputs, { timeout: 60_000, interval: 500 }).toEqual(['block', 'starter']);

      // One paused by its id; the others go on. The workflow's id pauses and resumes them all.
      expect((await api('POST', `/api/schedules/${id}:every/pause`)).body).toMatchObject({ id: `${id}:every`, blockId: 'every', status: 'paused', nextRunAt: [] });
      expect((await api<WorkflowSchedules>('GET', `/api/schedules?workflowId=${id}`)).body.schedules.map((v) => v.status)).toEqual(['active', 'paused', 'active']);
      expect((await api<WorkflowSchedules>('POST', `/api/schedules/${id}/pause`)).body.schedules.map((v) => v.status)).toEqual(['paused', 'paused', 'paused']);
      expect((await api<WorkflowSchedules>('POST', `/api/schedules/${id}/resume`)).body.schedules.map((v) => v.status)).toEqual(['active', 'active', 'active']);
      expect(await api('POST', `/api/schedules/${id}:nope/pause`)).toEqual({ status: 404, body: { error: `Schedule ${id}:nope not found` } });

      // Redeployed without the Every Ten block: its schedule is deleted, the others stay.
      expect((await api('POST', `/api/workflows/${id}/commands`, { commands: [{ type: 'removeBlock', id: 'every' }] })).status).toBe(200);
      await deploy(id);
      expect((await api<WorkflowSchedules>('GET', `/api/schedules?workflowId=${id}`)).body.schedules.map((v) => [v.id, v.deploymentVersion])).toEqual([
        [`${id}:${starter}`, 2],
        [`${id}:nightly`, 2],
      ]);
      expect(await temporalSchedule(`${id}:every`)).toBe('gone');
      expect(await temporalSchedule(`${id}:nightly`)).toBe('there');
    } finally {
      expect((await api('DELETE', `/api/workflows/${id}/deploy`)).status).toBe(200);
    }
    expect(await api('GET', `/api/schedules?workflowId=${id}`)).toEqual({ status: 200, body: { schedules: [] } });
    expect(await temporalSchedule(id)).toBe('gone');
    expect(await temporalSchedule(`${id}:nightly`)).toBe('gone');
  });

  it("the schedule call with workflowId and an empty state cancels a deleted workflow's schedule", async () => {
    const id = await workflow((starter) => [set(starter, 'startWorkflow', 'schedule'), set(starter, 'scheduleType', 'daily'), set(starter, 'dailyTime', '09:30'), set(starter, 'timezone', 'Asia/Tokyo')]);
    await deploy(id);
    // The deploy has answered: its schedule is there at once.
    expect((await api('GET', `/api/schedules?workflowId=${id}`)).status).toBe(200);
    const view = (await api<ScheduleView>('GET', `/api/schedules?workflowId=${id}`)).body;
    expect(view).toMatchObject({ cronExpression: '30 9 * * *', timezone: 'Asia/Tokyo', scheduleType: 'daily' });
    // 09:30 in Tokyo is 00:30 UTC.
    for (const t of view.nextRunAt) expect(t).toMatch(/T00:30:00/);
    // While deployed, the call leaves the deployment's schedule as it is.
    expect((await api('POST', '/api/schedules', { workflowId: id, state: {} })).body).toMatchObject({ success: true, cancelled: false });
    // A redeploy updates it: the draft's new time only once deployed.
    const starterId = await starterOf(id);
    expect((await api('POST', `/api/workflows/${id}/commands`, { commands: [set(starterId, 'dailyTime', '10:45')] })).status).toBe(200);
    expect((await api<ScheduleView>('GET', `/api/schedules?workflowId=${id}`)).body).toMatchObject({ cronExpression: '30 9 * * *', deploymentVersion: 1 });
    await deploy(id);
    const redeployed = (await api<ScheduleView>('GET', `/api/schedules?workflowId=${id}`)).body;
    expect(redeployed).toMatchObject({ cronExpression: '45 10 * * *', timezone: 'Asia/Tokyo', deploymentVersion: 2 });
    for (const t of redeployed.nextRunAt) expect(t).toMatch(/T01:45:00/);
    // Deleting the workflow removes its Temporal Schedule (the registry's workflowDeleted event), before any cancel call.
    expect(await temporalSchedule(id)).toBe('there');
    expect((await api('DELETE', `/api/workflows/${id}`)).status).toBe(200);
    await expect.poll(() => temporalSchedule(id), { timeout: 30_000, interval: 200 }).toBe('gone');
    const cancelled = await api('POST', '/api/schedules/schedule', { workflowId: id, state: { blocks: {}, edges: [], loops: {} } });
    expect(cancelled).toEqual({ status: 200, body: { success: true, cancelled: true, schedule: null, schedules: [] } });
    expect((await api('POST', '/api/schedules', {})).body).toEqual({ error: 'workflowId is required' });
  });
});

describe('rate limits', () => {
  const stops: Array<() => void> = [];
  afterAll(() => stops.forEach((stop) => stop()));

  it('a deployment key and an account get at most their runs per window across two gateways: 429 with Retry-After', async () => {
    // Two gateways with the same limits count into the same buckets (kept in Postgres). 600 s
    // windows: nothing these calls do can take long enough for one to slide out.
    const limits = { WEFT_RATE_LIMIT_DEPLOYMENT_KEY: '3/600s', WEFT_RATE_LIMIT_ACCOUNT: '6/600s' };
    const [gw, gw2] = await Promise.all([startSecondGateway(limits), startSecondGateway(limits)]);
    stops.push(gw.stop, gw2.stop);
    const via = (i: number) => (i % 2 === 0 ? gw.url : gw2.url);
    const owner = await createAccount('Limited Owner');
    const path = `limited-${unique()}`;
    const id = await workflow(starterWebhook(path, ''), owner.cookie);
    const { apiKey } = await deploy(id, owner.cookie);
    const viaKey = (base: string, key = apiKey) => fetch(`${base}/api/workflows/${id}/execute`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key, 'x-execution-mode': 'async' }, body: '{"body":{"n":1}}' });
    // A wrong key is checked first: 401, and it counts nowhere.
    for (let i = 0; i < 4; i++) expect((await viaKey(via(i), `wrong-${unique()}`)).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await viaKey(via(i))).status).toBe(202);
    for (const base of [gw.url, gw2.url]) {
      const limited = await viaKey(base);
      expect(limited.status).toBe(429);
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(500);
      expect(retryAfter).toBeLessThanOrEqual(600);
      expect(((await limited.json()) as { error: string }).error).toBe(`Rate limit exceeded: at most 3 runs per 600 s for this deployment key. Try again in ${retryAfter} s.`);
    }

    // The account the deployed runs act as (the deployer, here the owner): its key runs (3), webhook
    // runs and own runs share one window (6), so several workflows' keys do not multiply its runs.
    const hooked = [];
    for (let i = 0; i < 3; i++) hooked.push(await hook('POST', path, { body: { n: i }, base: via(i) }));
    expect(hooked.map((h) => h.status)).toEqual([200, 200, 200]);
    const refusedHook = await hook('POST', path, { body: { n: 9 }, base: gw.url });
    expect(refusedHook.status).toBe(429);
    expect(Number(refusedHook.headers.get('retry-after'))).toBeGreaterThan(500);
    const own = await fetch(`${gw2.url}/api/workflows/${id}/execute`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: owner.cookie, 'x-execution-mode': 'async' }, body: '{}' });
    expect(own.status).toBe(429);
    expect(own.headers.get('retry-after')).not.toBeNull();
    // A rerun is a run of the account as well.
    const earlier = (hooked[0]?.body as { executionId: string }).executionId;
    const rerun = await fetch(`${gw.url}/api/executions/${earlier}/rerun`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: owner.cookie }, body: '{"fromBlockId":"x"}' });
    expect(rerun.status).toBe(429);
    // Another account is not limited by this one.
    const other = await createAccount('Unlimited Other');
    const mine = await workflow((starter) => [set(starter, 'startWorkflow', 'manual')], other.cookie);
    const ran = await fetch(`${gw.url}/api/workflows/${mine}/execute`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: other.cookie, 'x-execution-mode': 'async' }, body: '{}' });
    expect(ran.status).toBe(202);
  });

  it("a webhook run counts on the account it acts as: the deployer's, the owner's once the deployer is read-only", async () => {
    const [gw, owner, dev] = await Promise.all([startSecondGateway({ WEFT_RATE_LIMIT_ACCOUNT: '2/600s' }), createAccount('Hook Owner'), createAccount('Hook Deployer')]);
    stops.push(gw.stop);
    const spaces = await api<{ workspaces: Array<{ id: string }> }>('GET', '/api/workspaces', undefined, { cookie: owner.cookie });
    const members = `/api/workspaces/${spaces.body.workspaces[0]?.id ?? ''}/members`;
    expect((await api('POST', members, { email: dev.email, permission: 'write' }, { cookie: owner.cookie })).status).toBe(201);
    const path = `limited-actor-${unique()}`;
    const id = await workflow(starterWebhook(path, ''), owner.cookie);
    await deploy(id, dev.cookie);
    const execute = (cookie: string) => fetch(`${gw.url}/api/workflows/${id}/execute`, { method: 'POST', headers: { 'content-type': 'application/json', cookie, 'x-execution-mode': 'async' }, body: '{}' });
    const hookVia = () => hook('POST', path, { body: { n: 1 }, base: gw.url });

    // Acting as the deployer: two runs of their account, then 429; the owner's own window is untouched.
    expect([(await hookVia()).status, (await hookVia()).status]).toEqual([200, 200]);
    const refused = await hookVia();
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: `Rate limit exceeded: at most 2 runs per 600 s for this account. Try again in ${retryAfter} s.`, retryAfter });
    expect((await execute(dev.cookie)).status).toBe(429);
    expect((await execute(owner.cookie)).status).toBe(202);

    // The deployer made read-only: the runs act as the owner and count on the owner's account (one left).
    expect((await api('PATCH', `${members}/${dev.userId}`, { permission: 'read' }, { cookie: owner.cookie })).status).toBe(200);
    expect((await hookVia()).status).toBe(200);
    expect((await hookVia()).status).toBe(429);
    expect((await execute(owner.cookie)).status).toBe(429);
    const runs = await api<{ executions: Execution[] }>('GET', `/api/workflows/${id}/executions?trigger=webhook`, undefined, { cookie: owner.cookie });
    expect(runs.body.executions).toHaveLength(3);
  });

  it('a repeated delivery takes no run from the window, and a refused one runs when the provider retries it', async () => {
    const [gw, owner, dev] = await Promise.all([startSecondGateway({ WEFT_RATE_LIMIT_ACCOUNT: '2/600s' }), createAccount('Redelivery Owner'), createAccount('Redelivery Deployer')]);
    stops.push(gw.stop);
    const spaces = await api<{ workspaces: Array<{ id: string }> }>('GET', '/api/workspaces', undefined, { cookie: owner.cookie });
    const members = `/api/workspaces/${spaces.body.workspaces[0]?.id ?? ''}/members`;
    expect((await api('POST', members, { email: dev.email, permission: 'write' }, { cookie: owner.cookie })).status).toBe(201);
    const path = `limited-redelivery-${unique()}`;
    const id = await workflow(starterWebhook(path, ''), owner.cookie);
    await deploy(id, dev.cookie);
    const deliver = (key: string) => hook('POST', path, { body: { key }, headers: { 'idempotency-key': key }, base: gw.url });

    // One delivery, repeated five times: one run, one slot of the deployer's two.
    const first = await deliver('a');
    expect(first.status).toBe(200);
    for (let i = 0; i < 5; i++) {
      const again = await deliver('a');
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ ok: true, duplicate: true, executionId: (first.body as { executionId: string }).executionId });
    }
    expect((await deliver('b')).status).toBe(200);
    const refused = await deliver('c');
    expect(refused.status).toBe(429);

    // The refused delivery's claim was given back: once the runs act as the owner (their window is
    // untouched), the provider's retry of 'c' runs, and is not answered as a duplicate.
    expect((await api('PATCH', `${members}/${dev.userId}`, { permission: 'read' }, { cookie: owner.cookie })).status).toBe(200);
    const retried = await deliver('c');
    expect(retried.status).toBe(200);
    expect(retried.body).not.toHaveProperty('duplicate');
    const runs = await api<{ executions: Execution[] }>('GET', `/api/workflows/${id}/executions?trigger=webhook`, undefined, { cookie: owner.cookie });
    expect(runs.body.executions.map((e) => (e.input as { body: { key: string } }).body.key).sort()).toEqual(['a', 'b', 'c']);
  });
});
