import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import express, { Router, type Request, type Response } from 'express';
import { AppError, type Logger } from '@weft/platform';
import { normalizeWebhookPath, secretForms, webhookTriggers } from '@weft/catalog';
import type { Clients } from '../clients.js';
import { verifyWebhook, type WebhookRequest } from '../webhooks/verify.js';
import { awaitRepeat, START_RETRY_AFTER_S, type RedeliveryClients } from '../webhooks/redelivery.js';
import { createHookSecretCache, type HookSecretCache } from '../webhooks/hookSecrets.js';
import { holdClaim, type ClaimLease, type LeaseTimer } from '../webhooks/claimLease.js';
import { admitRun, type RunLimiters } from '../rateLimit.js';
import { answerRun } from './executions.js';
import { fieldsOf, type FieldValue } from '../fields.js';
import { methodNotAllowed } from '../methodNotAllowed.js';
import { bodyFault, NOT_UTF8, rawDepthFault } from '../wellFormedInput.js';

/** Where webhook calls arrive; the rest of the path is the workflow's webhookPath. */
const WEBHOOK_MOUNT = '/webhooks/trigger';
/** HEAD answers whether the path listens and starts nothing. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** How long a webhook whose workflow answers with its Response block may run before the call gives up. */
const RESPONSE_DEADLINE_MS = 5 * 60_000;
const BODY_LIMIT = '5mb';

/** The path as written (percent-escapes decoded); a malformed escape is a path no workflow has. */
function decodedPath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new AppError('not_found', `No deployed workflow listens on webhook path "${raw.replace(/^\/+/, '')}"`);
  }
}

function headersOf(req: Request): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/**
 * Header or query values as the run keeps them: the hook's own secret, when a value carries it (a
 * bearer token, a token header or Gmail's `?token=`), is written `[REDACTED]` in every form
 * `secretForms` knows (percent- or form-encoded in a forwarded URL or a Referer, JSON-escaped…), the
 * longer form first — it verified the call and is no business of the run's input, its log or its answer.
 */
export function withoutSecret(values: Record<string, string | string[] | undefined>, secret: string): Record<string, string | string[] | undefined> {
  if (secret === '') return values;
  const forms = secretForms(secret).sort((a, b) => b.length - a.length);
  const redact = (value: string): string => forms.reduce((out, form) => (out.includes(form) ? out.split(form).join('[REDACTED]') : out), value);
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, Array.isArray(value) ? value.map(redact) : value === undefined ? value : redact(value)]));
}

/** The query of a call as the run's input keeps it (`fieldsOf`). */
export function webhookQuery(url: string): Record<string, FieldValue> {
  return fieldsOf(new URL(url, 'http://webhook').searchParams);
}

/** The query a provider's check reads (Gmail's `?token=`, WhatsApp's `hub.*`): a key's first value. */
function firstValues(query: Record<string, FieldValue>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(query).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]));
}

/**
 * The call's body as the run sees it: JSON parsed, a form as an object of its fields (a repeated field
 * an array, as in the query), other text as a string, nothing as null. A body that is not UTF-8, JSON
 * that does not parse, and text the run could not keep as sent (NUL, a lone surrogate, nesting past
 * MAX_BODY_DEPTH: wellFormedInput.ts) are `{ok: false, message}`, refused with a 400 after the
 * signature check. Form values are the sender's data and are not redacted: no provider check reads
 * the hook's secret from a body.
 */
export function webhookBody(contentType: string | undefined, raw: Buffer): { ok: true; value: unknown } | { ok: false; message: string } {
  if (raw.length === 0) return { ok: true, value: null };
  // Never read with U+FFFD in place of the bytes sent (the signature is checked over the bytes all the same).
  if (!isUtf8(raw)) return { ok: false, message: NOT_UTF8 };
  const type = (contentType ?? '').toLowerCase();
  const text = raw.toString('utf8');
  let value: unknown = text;
  if (type.includes('json')) {
    // Nesting past MAX_BODY_DEPTH is refused from the bytes, before a parse that would cost seconds.
    const deep = rawDepthFault(raw);
    if (deep) return { ok: false, message: deep };
    try {
      value = JSON.parse(text);
    } catch {
      return { ok: false, message: 'Request body must be valid JSON' };
    }
  } else if (type.includes('application/x-www-form-urlencoded')) value = fieldsOf(new URLSearchParams(text));
  const fault = bodyFault(value);
  return fault ? { ok: false, message: fault } : { ok: true, value };
}

/** The calls a webhook makes: the registry's trigger service and environment, the runner's runs. */
export interface WebhookClients {
  triggers: RedeliveryClients['triggers'] & Pick<Clients['triggers'], 'resolveWebhook' | 'releaseWebhookDelivery' | 'renewWebhookDelivery'>;
  runs: RedeliveryClients['runs'] & Pick<Clients['runs'], 'startRun'>;
  registry: Pick<Clients['registry'], 'getEnvironment'>;
}

/**
 * GET|POST|PUT|PATCH|DELETE /api/webhooks/trigger/{path}: runs the deployed version of the workflow
 * listening on `path` with `{method, headers, query, body}` as its input. The call is checked the way
 * its provider signs it (401 and no run when it does not match); handshakes (Slack url_verification,
 * WhatsApp subscribe, Discord PING) are answered without a run; a delivery id runs once however often
 * it is delivered. Answers 200 `{ok, executionId}` once the run has started, or — when the webhook is
 * set to answer with its Response block — that block's status, headers and body once the run ends
 * (a repeated delivery then answers what the first one got, waiting for its run if needed).
 * Mounted before the JSON body parser: signatures are checked over the raw bytes. `opts` (tests): the
 * cache of resolved `{{KEY}}` secrets and the timer claim renewals run on.
 */
export function webhookRoutes(clients: WebhookClients, limiters: Pick<RunLimiters, 'account'>, logger: Logger, opts: { secrets?: HookSecretCache; leaseTimer?: LeaseTimer } = {}): Router {
  const r = Router();
  const secrets = opts.secrets ?? createHookSecretCache();
  const raw = express.raw({ type: () => true, limit: BODY_LIMIT });

  async function handle(req: Request, res: Response): Promise<void> {
    const path = normalizeWebhookPath(decodedPath(req.path));
    if (path === '') throw new AppError('not_found', 'No webhook path given');
    const deployed = await clients.triggers.resolveWebhook({ path });
    const state = JSON.parse(deployed.stateJson) as { blocks?: Record<string, unknown> };
    // A workflow may listen on several paths (its starter, each webhook block): this path's webhook.
    const written = webhookTriggers(state.blocks ?? {}).find((w) => w.path === path);
    if (!written) throw new AppError('not_found', `No deployed workflow listens on webhook path "${path}"`);
    if (req.method === 'HEAD') {
      res.status(200).end();
      return;
    }
    const actorId = deployed.actorId || deployed.ownerId;
    // A secret written `{{KEY}}` is the run's actor's environment value, as in every block the run reads
    // (kept a short while per workflow and actor: the registry decrypts the whole environment to answer).
    // The account rate limit stays after the signature check and the claim (step 4 of docs/triggers.md):
    // taken here, forged calls would use up the account's runs.
    const cacheKey = JSON.stringify([deployed.workflowId, actorId, written.blockId]);
    const { hook, missing } = await secrets.resolve(cacheKey, written, async () => (await clients.registry.getEnvironment({ actor: { userId: actorId } })).variables);
    if (missing.length > 0) {
      // Fails closed: refused below as a wrong secret is (the hook's secret is then unguessable); only
      // the log says why, naming the keys (never a value) so the owner can find them.
      logger.warn({ workflowId: deployed.workflowId, blockId: written.blockId, actorId, keys: missing }, 'webhook secret refers to environment variables the acting user does not have or left empty: calls are refused');
    }

    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const body = webhookBody(req.header('content-type'), rawBody);
    const query = webhookQuery(req.originalUrl);
    const call: WebhookRequest = { method: req.method, headers: headersOf(req), query: firstValues(query), rawBody, body: body.ok ? body.value : null };
    // The signature first: a forged call learns nothing about its body (401 before any 400).
    const verdict = verifyWebhook(call, { provider: hook.provider, secret: hook.secret, verifyToken: hook.verifyToken });
    if (verdict.kind === 'refused') throw new AppError('unauthenticated', verdict.message);
    if (missing.length > 0) throw new AppError('unauthenticated', 'Invalid webhook token');
    if (!body.ok) throw new AppError('validation', body.message);
    if (verdict.kind === 'handshake') {
      res.status(verdict.status);
      if (verdict.contentType === 'json') res.json(verdict.body);
      else res.type('text/plain').send(String(verdict.body));
      return;
    }
    const workflowId = deployed.workflowId;
    const executionId = randomUUID();
    const wait = hook.responseMode === 'response';
    const arrived = Date.now();
    // A delivery id is the provider's for one hook: scoped by the webhook's block, so two hooks of a
    // workflow (two Telegram bots count their update_id each from 1) never take each other's deliveries.
    const deliveryId = verdict.deliveryId ? `${hook.blockId}:${verdict.deliveryId}` : undefined;
    // While this call holds the delivery's claim and is still starting its run, it renews the claim's
    // lease, so a repeat never takes over a slow start; stopped when the start has answered, the
    // claim is given back, or anything throws (finally below).
    let lease: ClaimLease | undefined;
    const releaseClaim = (id: string): Promise<void> => {
      lease?.stop();
      return clients.triggers.releaseWebhookDelivery({ workflowId, deliveryId: id, executionId }).then(
        () => undefined,
        (releaseErr: unknown) => logger.warn({ err: releaseErr, workflowId }, 'webhook delivery claim not released'),
      );
    };
    try {
      if (deliveryId) {
        const delivery = { workflowId, deliveryId, executionId };
        const claim = await clients.triggers.claimWebhookDelivery(delivery);
        if (claim.duplicate) {
          // Answered at its start, a repeat is acknowledged only once the first delivery's run has
          // started (were its start to fail after a 200 here, the provider would never send the event
          // again); answered with the Response block, it gets what the first call got once its run ended.
          const first = await awaitRepeat(clients, delivery, claim.executionId, { answersAtStart: !wait, arrived, responseDeadline: arrived + RESPONSE_DEADLINE_MS });
          switch (first.kind) {
            case 'started':
              res.status(200).json({ ok: true, executionId: first.executionId, duplicate: true });
              return;
            case 'ended':
              answerRun(res, first.execution);
              return;
            case 'pending':
              res.setHeader('Retry-After', String(START_RETRY_AFTER_S));
              throw new AppError('unavailable', `The first delivery of this call (execution ${first.executionId}) has not started yet; retry later`);
            case 'claimed':
              // The first never started: this call holds the claim now and runs the delivery.
              break;
            default: {
              const unknownOutcome: never = first;
              throw new Error(`Unknown repeat outcome ${JSON.stringify(unknownOutcome)}`);
            }
          }
        }
        // This call holds the claim (its own, or one given back or lapsed that it claimed).
        lease = holdClaim(clients.triggers, delivery, claim.leaseMs, logger, opts.leaseTimer);
      }
      // A repeat took the claim over (renewals did not reach the registry for a whole lease): it runs
      // the delivery, so this call starts nothing and asks the provider to retry — its retry is then a
      // repeat answered with the taker's run. (A claim lost once the start is on its way cannot stop it.)
      const refuseLostClaim = (): void => {
        if (!lease?.lost) return;
        res.setHeader('Retry-After', String(START_RETRY_AFTER_S));
        throw new AppError('unavailable', `This delivery was taken over by a repeated call while starting (execution ${executionId} not started); retry later`);
      };
      // Counted on the account the run acts as (the deployer, or the owner once they may not deploy),
      // as a run started with a personal key counts on the account it runs as. Taken after the delivery
      // claim: a repeated delivery starts no run and takes no slot; a refused one gives its claim back,
      // so the provider's retry after Retry-After runs. The claim is checked before the slot is taken,
      // and — as only a renewal's answer can lose it, the take's own wait is when it can be lost —
      // again after: lost by then, the slot is given back, so a call that starts nothing uses none.
      refuseLostClaim();
      const bucket = `account:${actorId}`;
      if (!(await admitRun(res, limiters.account, bucket, 'for this account'))) {
        if (deliveryId) await releaseClaim(deliveryId);
        return;
      }
      if (lease?.lost) await limiters.account.giveBack(bucket);
      refuseLostClaim();
      const input = { method: call.method, headers: withoutSecret(call.headers, hook.secret), query: withoutSecret(query, hook.secret), body: call.body };
      let started;
      try {
        started = await clients.runs.startRun(
          {
            workflowId,
            inputJson: JSON.stringify(input),
            actorId,
            trigger: 'webhook',
            stateJson: deployed.stateJson,
            deploymentVersion: deployed.deploymentVersion,
            workspaceId: deployed.workspaceId,
            // A webhook block the starter does not lead to: the run starts at that block.
            triggerBlockId: hook.blockId,
            wait,
            stream: false,
            executionId,
          },
          { deadlineMs: wait ? RESPONSE_DEADLINE_MS : undefined },
        );
      } catch (err) {
        // Not started (a waited run that timed out did start): the call used no run, so its slot of
        // the account rate limit is given back, and the provider's retry of this delivery must run,
        // so the claim is given back too (the slot first: the retry the release lets in finds it free).
        const startedAnyway = await clients.runs.getExecution({ executionId, withoutLogs: true }).then(
          (got) => got.execution !== undefined,
          () => false,
        );
        if (!startedAnyway) {
          await limiters.account.giveBack(bucket);
          if (deliveryId) await releaseClaim(deliveryId);
        }
        throw err;
      }
      if (wait && started.execution) {
        answerRun(res, started.execution);
        return;
      }
      res.status(200).json({ ok: true, executionId });
    } finally {
      lease?.stop();
    }
  }

  // Mounted with `use`, not a route pattern: the path is taken as sent (a route would decode it as a
  // parameter and fail on a malformed escape before this code could answer 404).
  r.use(WEBHOOK_MOUNT, (req, res, next) => {
    if (!METHODS.has(req.method)) {
      // A webhook path answers these methods alone; a call with another is told which (never a 404 that reads as a wrong path).
      const { status, allow, error } = methodNotAllowed(req.method, `/api${WEBHOOK_MOUNT}${req.path}`, METHODS);
      res.setHeader('Allow', allow);
      res.status(status).json({ error });
      return;
    }
    raw(req, res, (err?: unknown) => {
      if (err) next(err);
      else handle(req, res).catch(next);
    });
  });
  return r;
}
