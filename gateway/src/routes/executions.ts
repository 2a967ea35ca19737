import { randomUUID } from 'node:crypto';
import express, { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { NatsConnection, Subscription } from 'nats';
import { AppError, toAppError } from '@weft/platform';
import { runChunksSubject, type runner } from '@weft/contracts';
import type { Clients } from '../clients.js';
import { requireActor, type Actor, type Authenticator } from '../auth.js';
import type { AccessChecker, AccessMode } from '../access.js';
import { API_KEY_PREFIX } from '../accounts/apiKeys.js';
import type { DeploymentGrant } from '../rateLimit.js';
import { TtlCache } from '../ttlCache.js';
import { BODY_LIMIT, fromJson, parseBody } from '../validate.js';
import { chunkSelected, resolveSelectedOutputs, selectedOutputsOf, type NamedBlocks } from './streamSelection.js';
import { stringQuery } from './internalCall.js';
import { apiInputFields, checkApiInput, inputOfText } from '../apiInput.js';
import { checkBody, verifyTextBody } from '../wellFormedInput.js';
import { isAnswerStatus, type InputField } from '@weft/catalog';

/** How long a waited (synchronous) run may take before the call gives up. */
const SYNC_DEADLINE_MS = 10 * 60_000;
/** How long one ReadRunEvents call waits for an event before the stream sends a keep-alive. */
const POLL_WAIT_MS = 15_000;
/** Headers of a Response block that the HTTP layer sets itself. */
const RESERVED_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade']);

const STATUSES = ['running', 'succeeded', 'failed', 'cancelled'] as const;
const TRIGGERS = ['manual', 'api', 'webhook', 'schedule', 'chat', 'workflow'] as const;
const LIMIT_RULE = 'must be a whole number from 1 to 100';
const listQuery = z.object({
  status: z.enum(STATUSES, { error: `must be one of ${STATUSES.join(', ')}` }).optional(),
  trigger: z.enum(TRIGGERS, { error: `must be one of ${TRIGGERS.join(', ')}` }).optional(),
  cursor: z.string().min(1, 'must be the nextCursor of an earlier page').optional(),
  limit: z.coerce.number({ error: LIMIT_RULE }).int(LIMIT_RULE).min(1, LIMIT_RULE).max(100, LIMIT_RULE).optional(),
});
const valueQuery = z.object({ ref: z.string({ error: 'ref is required' }).min(1, 'ref is required') });
const rerunBody = z.object({ fromBlockId: z.string({ error: 'fromBlockId is required' }).min(1, 'fromBlockId is required') });

/** Live extras: model tokens are relayed from core NATS when the gateway has a connection. */
export interface ExecutionLive {
  nats: NatsConnection;
  instance: string;
}

type Mode = 'sync' | 'async' | 'stream';

/**
 * How the caller wants the answer: `x-execution-mode: async` (any case: `ASYNC`, `Async`; spaces
 * around it ignored), SSE (Accept or `stream: true`), or JSON when the run ends.
 */
export function modeOf(req: { header(name: string): string | undefined }, body: unknown): Mode {
  const header = req.header('x-execution-mode');
  const asked = header?.trim().toLowerCase();
  if (header !== undefined && asked !== '' && asked !== 'sync' && asked !== 'async') throw new AppError('validation', `x-execution-mode: must be "sync" or "async", got "${header.slice(0, 40)}"`);
  const stream = typeof body === 'object' && body !== null && !Array.isArray(body) && 'stream' in body ? body.stream : undefined;
  // A stream switch that is no boolean ("true" as text) would quietly wait for the run instead.
  if (stream !== undefined && typeof stream !== 'boolean') throw new AppError('validation', 'stream: must be true or false');
  if (asked === 'async') return 'async';
  const accept = req.header('accept') ?? '';
  if (accept.includes('text/event-stream')) return 'stream';
  return stream === true ? 'stream' : 'sync';
}

/** The run's input: the body, without the `stream` switch and the `selectedOutputs` choice. */
function inputOf(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body ?? null;
  if (!('stream' in body) && !('selectedOutputs' in body)) return body;
  const { stream: _stream, selectedOutputs: _selected, ...rest } = body as Record<string, unknown>;
  return rest;
}

/** The blocks of a state's JSON (none when it has none). */
function blocksOf(stateJson: string): NamedBlocks {
  return ((stateJson ? JSON.parse(stateJson) : {}) as { blocks?: NamedBlocks }).blocks ?? {};
}

/** An execution as the API shows it. */
export function executionView(e: runner.Execution) {
  return {
    executionId: e.executionId,
    workflowId: e.workflowId,
    workspaceId: e.workspaceId || null,
    status: e.status,
    trigger: e.trigger,
    input: fromJson(e.inputJson),
    output: fromJson(e.outputJson),
    error: e.error ?? null,
    logs: e.logsJson ? fromJson(e.logsJson) : undefined,
    cost: e.costJson ? fromJson(e.costJson) : null,
    tokens: e.tokensJson ? fromJson(e.tokensJson) : null,
    startedAt: e.startedAt,
    endedAt: e.endedAt ?? null,
    durationMs: e.durationMs ?? null,
    deploymentVersion: e.deploymentVersion ?? null,
    rerunOf: e.rerunOf ?? null,
    fromBlockId: e.fromBlockId ?? null,
  };
}

/** The answer of a waited run: a Response block's status, headers and body, else the run's JSON. */
export function answerRun(res: Response, e: runner.Execution): void {
  const response = e.responseJson ? (fromJson(e.responseJson) as { status?: unknown; headers?: unknown; data?: unknown }) : null;
  if (response) {
    // Only a final status: a 1xx (a run recorded before the runner refused one) would leave the caller waiting.
    const status = isAnswerStatus(response.status) ? response.status : 200;
    const headers = typeof response.headers === 'object' && response.headers !== null ? Object.entries(response.headers) : [];
    let contentType: string | undefined;
    for (const [name, value] of headers) {
      if (typeof value !== 'string' || RESERVED_HEADERS.has(name.toLowerCase())) continue;
      if (name.toLowerCase() === 'content-type') contentType = value;
      res.setHeader(name, value);
    }
    res.status(status);
    if (typeof response.data === 'string' && contentType && !contentType.includes('json')) res.send(response.data);
    else res.json(response.data ?? null);
    return;
  }
  res.json({
    success: e.status === 'succeeded',
    output: fromJson(e.outputJson),
    ...(e.error ? { error: e.error } : {}),
    logs: e.logsJson ? fromJson(e.logsJson) : [],
    metadata: { executionId: e.executionId, duration: e.durationMs ?? null, startTime: e.startedAt, endTime: e.endedAt ?? null },
    cost: e.costJson ? fromJson(e.costJson) : null,
  });
}

interface StoredEvent {
  seq: number;
  type: string;
  data: Record<string, unknown>;
  at: string;
}

/** The SSE event name and data of a stored run event. */
function sseOf(event: StoredEvent): { name: string; data: Record<string, unknown> } | null {
  const d = event.data;
  switch (event.type) {
    case 'runStarted':
      return { name: 'execution:started', data: d };
    case 'blockStarted':
      return { name: 'block:started', data: d };
    case 'blockCompleted':
      return { name: 'block:completed', data: { ...d, duration: d.durationMs } };
    case 'blockError':
      return { name: 'block:error', data: { ...d, duration: d.durationMs } };
    case 'runCompleted': {
      const status = d.status === 'cancelled' ? 'cancelled' : d.status === 'succeeded' ? 'completed' : 'failed';
      const metadata = { executionId: d.executionId, duration: d.durationMs, startTime: d.startedAt, endTime: d.endedAt };
      return { name: `execution:${status}`, data: { ...d, metadata } };
    }
    default:
      return null;
  }
}

/**
 * Relays a run's events to one SSE client from `after` (the whole run so far when 0), then long-polls
 * the runner for new ones until the run has ended and every event is sent. Model tokens arrive from
 * core NATS as `stream:chunk` (not numbered: a reader that resumes gets the blocks' outputs instead).
 */
async function streamRun(
  clients: Clients,
  live: ExecutionLive | undefined,
  executionId: string,
  after: number,
  res: Response,
  start?: () => Promise<void>,
  selected?: ReadonlySet<string>,
): Promise<void> {
  let open = true;
  res.on('close', () => {
    open = false;
  });
  // Subscribed to the run's tokens before it starts, so none is missed once the stream is open.
  const chunks: Subscription | undefined = live?.nats.subscribe(runChunksSubject(live.instance, executionId), {
    callback: (err, msg) => {
      if (err || !open || !res.headersSent) return;
      const data = msg.string();
      if (chunkSelected(data, selected)) res.write(`event: stream:chunk\ndata: ${data}\n\n`);
    },
  });
  try {
    // A run that cannot start answers as any request does (400, 404…), before the stream opens.
    if (start) await start();
  } catch (err) {
    chunks?.unsubscribe();
    throw err;
  }
  res.status(200).set({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  res.flushHeaders();
  res.write('retry: 2000\n\n');
  try {
    let cursor = after;
    while (open) {
      const page = await clients.runs.readRunEvents({ executionId, after: cursor, waitMs: POLL_WAIT_MS, limit: 0 }, { deadlineMs: POLL_WAIT_MS + 5_000 });
      if (!open) return;
      const events = JSON.parse(page.eventsJson) as StoredEvent[];
      for (const event of events) {
        const sse = sseOf(event);
        if (sse) res.write(`id: ${event.seq}\nevent: ${sse.name}\ndata: ${JSON.stringify(sse.data)}\n\n`);
        cursor = event.seq;
      }
      if (page.status !== 'running' && cursor >= page.lastSeq) break;
      if (events.length === 0) res.write(': keep-alive\n\n');
    }
    if (open) res.end();
  } catch (err) {
    if (open) res.end(`event: error\ndata: ${JSON.stringify({ error: toAppError(err).message })}\n\n`);
  } finally {
    chunks?.unsubscribe();
  }
}

/** Where an SSE reader resumes: Last-Event-ID (an EventSource reconnecting), else `?after=`, else the start. */
function resumeAfter(req: Request): number {
  const after = req.query.after;
  // A repeated ?after= is refused, not ignored (the stream would replay the run from its start).
  if (after !== undefined && typeof after !== 'string') throw new AppError('validation', 'after must be a non-negative integer, given once');
  const given = req.header('last-event-id') || (after ?? '');
  if (!given) return 0;
  const n = Number(given);
  // Past 2^53 a whole number goes to the runner as 1e+23, no int64.
  if (!Number.isSafeInteger(n) || n < 0) throw new AppError('validation', `${req.header('last-event-id') ? 'Last-Event-ID' : 'after'} must be a non-negative integer`);
  return n;
}

/**
 * Runs and executions: POST /api/workflows/{id}/execute (draft with a session or personal key with
 * write access; the active deployed version with the workflow's deployment key), the execution
 * reads, the workflow's execution list, cancel, rerun and the resumable SSE stream.
 */
export function executionRoutes(clients: Clients, auth: Authenticator, access: AccessChecker, live?: ExecutionLive): Router {
  const r = Router();
  // A workflow never changes workspace: its id is remembered once looked up.
  const workspaces = new TtlCache<string, string>(10 * 60_000, 10_000);
  // A deployed version never changes: its starter's input fields are read from its state once, not on every call.
  const deployedInputFields = new TtlCache<string, InputField[]>(10 * 60_000, 1_000);
  function inputFieldsOf(workflowId: string, grant: DeploymentGrant): InputField[] {
    const key = `${workflowId}@${grant.version}`;
    const known = deployedInputFields.get(key);
    if (known) return known;
    const fields = apiInputFields(blocksOf(grant.stateJson));
    deployedInputFields.set(key, fields);
    return fields;
  }

  async function workspaceOf(actor: Actor, workflowId: string): Promise<string> {
    return (
      (await workspaces.remember(workflowId, async () => {
        const { workflow } = await clients.registry.getWorkflow({ actor, workflowId, access: 'read' });
        return workflow?.workspaceId;
      })) ?? ''
    );
  }

  /**
   * An execution the caller may read or write: a session or personal key through its workflow's
   * access; a workflow's deployment key (x-api-key that is not a personal key) for the runs of that
   * workflow's deployments (those with a deployment version: API key, webhook and schedule runs),
   * deployed now or not. A key of no workflow is 401; any other execution is 404 to a key, as an
   * unknown one (the key learns nothing of runs it cannot read).
   */
  async function executionFor(req: Request<{ id: string }>, mode: AccessMode, withLogs: boolean): Promise<runner.Execution> {
    const executionId = req.params.id;
    const key = req.header('x-api-key');
    if (key && !key.startsWith(API_KEY_PREFIX)) {
      const { workflowId } = await clients.triggers.deploymentKeyWorkflow({ apiKey: key });
      const { execution } = await clients.runs.getExecution({ executionId, withoutLogs: !withLogs });
      if (!execution || execution.workflowId !== workflowId || execution.deploymentVersion === undefined) throw new AppError('not_found', `Execution ${executionId} not found`);
      return execution;
    }
    const actor = await requireActor(auth, req);
    const { execution } = await clients.runs.getExecution({ executionId, withoutLogs: !withLogs });
    if (!execution) throw new AppError('not_found', `Execution ${executionId} not found`);
    await access.require(actor, execution.workflowId, mode);
    return execution;
  }

  /** Starts a run and answers it the way the caller asked. */
  async function run(
    res: Response,
    mode: Mode,
    start: (o: { wait: boolean; stream: boolean; executionId: string }) => Promise<runner.ExecutionResponse>,
    selected?: ReadonlySet<string>,
  ): Promise<void> {
    const executionId = randomUUID();
    if (mode === 'async') {
      await start({ wait: false, stream: false, executionId });
      res.status(202).json({ executionId });
      return;
    }
    if (mode === 'stream') {
      await streamRun(
        clients,
        live,
        executionId,
        0,
        res,
        async () => {
          await start({ wait: false, stream: true, executionId });
        },
        selected,
      );
      return;
    }
    const { execution } = await start({ wait: true, stream: false, executionId });
    if (!execution) throw new AppError('internal', 'The runner answered without an execution');
    answerRun(res, execution);
  }

  // A body the JSON parser left (another content type, or none): JSON text or a form, else a 400.
  // Text read as JSON (it starts with `{` or `[`) has its nesting counted before it is parsed.
  const otherBodies = express.text({ type: () => true, limit: BODY_LIMIT, verify: verifyTextBody });

  r.post('/workflows/:id/execute', otherBodies, async (req, res) => {
    const workflowId = req.params.id;
    const body: unknown = typeof req.body === 'string' ? inputOfText(req.header('content-type'), req.body) : req.body;
    // A JSON body was checked by the app's parser; text and forms are checked once read.
    if (typeof req.body === 'string') checkBody(body);
    const mode = modeOf(req, body);
    const input = inputOf(body);
    // The blocks whose tokens stream, named against the state that runs.
    const selection = selectedOutputsOf(body);
    const selectedIn = (stateJson: string) => (selection ? resolveSelectedOutputs(selection, blocksOf(stateJson)) : undefined);
    // An API call's input is read against the starter's input format (apiInput.ts).
    const draftInputJson = (stateJson: string) => JSON.stringify(checkApiInput(apiInputFields(blocksOf(stateJson)), input));
    const key = req.header('x-api-key');
    if (key && !key.startsWith(API_KEY_PREFIX)) {
      // The workflow's deployment API key: the active deployed version runs, acting as its deployer
      // (the owner once the deployer may no longer deploy there), like its webhook and schedule runs.
      // Resolved by the rate limit in front of this route (runRateLimits); resolved here when that is absent.
      const grant = (res.locals.deploymentGrant as DeploymentGrant | undefined) ?? (await clients.registry.resolveDeploymentKey({ workflowId, apiKey: key }));
      const inputJson = JSON.stringify(checkApiInput(inputFieldsOf(workflowId, grant), input));
      await run(res, mode, (o) =>
        clients.runs.startRun(
          { workflowId, inputJson, actorId: grant.actorId || grant.deployedBy, trigger: 'api', stateJson: grant.stateJson, deploymentVersion: grant.version, workspaceId: grant.workspaceId, ...o },
          { deadlineMs: o.wait ? SYNC_DEADLINE_MS : undefined },
        ),
        selectedIn(grant.stateJson),
      );
      return;
    }
    const actor = await requireActor(auth, req);
    await access.require(actor, workflowId, 'write');
    const workspaceId = await workspaceOf(actor, workflowId);
    // A personal key's run is an API call of the draft: its input is read as the deployed one's is.
    const draft = selection || key ? (await clients.editor.getState({ workflowId, waitMs: 0 })).stateJson : undefined;
    const selected = draft === undefined ? undefined : selectedIn(draft);
    const inputJson = key && draft !== undefined ? draftInputJson(draft) : JSON.stringify(input);
    await run(
      res,
      mode,
      (o) => clients.runs.startRun({ workflowId, inputJson, actorId: actor.userId, trigger: key ? 'api' : 'manual', workspaceId, ...o }, { deadlineMs: o.wait ? SYNC_DEADLINE_MS : undefined }),
      selected,
    );
  });

  r.get('/executions/:id', async (req, res) => {
    const execution = await executionFor(req, 'read', true);
    res.json(executionView(execution));
  });

  // A stored value an answer left as `{$blobRef, bytes}` (its answer's values budget was spent).
  r.get('/executions/:id/values', async (req, res) => {
    const { ref } = parseBody(valueQuery, stringQuery(req));
    const execution = await executionFor(req, 'read', false);
    const { valueJson } = await clients.runs.getExecutionValue({ executionId: execution.executionId, ref });
    res.type('application/json').send(valueJson);
  });

  r.get('/executions/:id/stream', async (req, res) => {
    const after = resumeAfter(req);
    const execution = await executionFor(req, 'read', false);
    await streamRun(clients, execution.status === 'running' ? live : undefined, execution.executionId, after, res);
  });

  r.get('/workflows/:id/executions', async (req, res) => {
    const actor = await requireActor(auth, req);
    const q = parseBody(listQuery, stringQuery(req));
    await access.require(actor, req.params.id, 'read');
    const page = await clients.runs.listExecutions({ workflowId: req.params.id, status: q.status, trigger: q.trigger, cursor: q.cursor, limit: q.limit ?? 20 });
    res.json({ executions: page.executions.map(executionView), nextCursor: page.nextCursor ?? null });
  });

  // The deployment key may cancel the runs it may read (a caller stops the async run it started).
  r.post('/executions/:id/cancel', async (req, res) => {
    const execution = await executionFor(req, 'write', false);
    const actor = await auth.authenticate(req);
    const out = await clients.runs.cancelExecution({ executionId: execution.executionId, actorId: actor?.userId ?? '' });
    if (!out.execution) throw new AppError('internal', 'The runner answered without an execution');
    res.json(executionView(out.execution));
  });

  r.post('/executions/:id/rerun', async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(rerunBody, req.body);
    const mode = modeOf(req, req.body);
    const execution = await executionFor(req, 'write', false);
    // The blocks whose tokens stream, as for a new run; named against the state the rerun runs (the
    // one the execution ran, not the draft: a block deleted since is there, one added since is not).
    const selection = selectedOutputsOf(req.body);
    const selected = selection
      ? resolveSelectedOutputs(selection, blocksOf((await clients.runs.getRerunState({ executionId: execution.executionId })).stateJson), 'the workflow this execution ran')
      : undefined;
    await run(
      res,
      mode,
      (o) =>
        clients.runs.rerunExecution(
          { executionId: execution.executionId, fromBlockId: body.fromBlockId, actorId: actor.userId, wait: o.wait, stream: o.stream, newExecutionId: o.executionId },
          { deadlineMs: o.wait ? SYNC_DEADLINE_MS : undefined },
        ),
      selected,
    );
  });

  return r;
}
