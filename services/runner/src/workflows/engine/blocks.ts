import { isCancellation, patched } from '@temporalio/workflow';
import { blockToolCall, FUNCTION_TIMEOUT_MS, functionTimeoutError, getBlock, responseStatusError, RETRIES_FIELD, retriesError, STREAMING_BLOCK_TYPES, validateBlockParams } from '@weft/catalog';
import type { CallContext, StoreLargeOutput, ToolResult } from '@weft/contracts';
import { conditionAtLine, conditionProgram, maxAttemptsOf, parseConditions, structureToObject, tableToRecord } from '../blockValues.js';
import { ERROR_HANDLE, handleOf } from '../graph.js';
import { MODEL_BLOCK_TYPES, runModelBlock } from '../models/index.js';
import { inField, pickEnv, resolveFields, resolveJsonText, rewriteCode, type RewrittenCode } from '../references.js';
import { attemptFields, AttemptsExhausted, failureMessage, withRetries } from '../retry.js';
import type { AttemptRecord, BlockRunContext, RunnableBlock } from '../types.js';
import { starterOutput } from './chatStarter.js';
import { unknownReferenceIn } from './codeReferenceCheck.js';
import { runContainer } from './containers.js';
import { failureAnswer, keptAnswer } from './httpAnswer.js';
import { callKeepsAsideOver } from './inlineBudget.js';
import { maskSecretFields, secretValues } from './logMasking.js';
import { findOutput, hydrate, resolverFor, type Executed, type Frame, type Resolver, type Run } from './run.js';
import { runChildWorkflow } from './workflowBlock.js';

/** Start-to-close of one tool call (long-polling tools such as crawls run up to 300 s). */
const TOOL_TIMEOUT_MS = 10 * 60_000;
/** Margin over a function's own timeout before its activity counts as lost. */
const FUNCTION_MARGIN_MS = 30_000;

/** What running a block gives the scheduler: the outcome and the input the log shows. */
export interface BlockRun {
  exec: Executed;
  input: unknown;
  /** The output the log shows when it is not `exec.output` (a child run's starter: its input as its parent logged it). */
  logOutput?: unknown;
  /** What the block's password fields resolved to: the log shows `[REDACTED]` wherever they appear (an error quoting a key). */
  secrets?: string[];
}

const fail = (error: string, input?: unknown): BlockRun => ({ exec: { success: false, output: null, error }, input });

/** A block whose code threw (not a cancellation): failed with the message, and its tries when it was retried. */
export function thrownFailure(err: unknown): Executed {
  return { success: false, output: null, error: failureMessage(err), ...(err instanceof AttemptsExhausted ? attemptFields(err.attempts, err.tries) : {}) };
}

function subValues(block: RunnableBlock): Record<string, unknown> {
  return Object.fromEntries(Object.entries(block.subBlocks).map(([k, sb]) => [k, sb.value]));
}

function callContext(run: Run, block: RunnableBlock): CallContext {
  return {
    workspaceId: run.workspaceId,
    workflowId: run.args.workflowId,
    executionId: run.executionId,
    blockId: block.id,
    requestId: run.args.requestId,
    ...(run.args.actorId ? { actorId: run.args.actorId } : {}),
  };
}

function targetsOf(run: Run, frame: Frame, block: RunnableBlock): BlockRunContext['targets'] {
  return (frame.scope.outgoing.get(block.id) ?? [])
    .filter((e) => handleOf(e) !== ERROR_HANDLE)
    .flatMap((e) => {
      const t = run.graph.blocks[e.target];
      return t ? [{ blockId: t.id, blockType: t.type, blockTitle: t.name }] : [];
    });
}

/** Block types the engine runs with code of its own: the starter, containers, condition, function, response and child workflow. */
export const CONTROL_BLOCK_TYPES = ['starter', 'loop', 'parallel', 'condition', 'function', 'response', 'workflow'] as const;
type ControlBlockType = (typeof CONTROL_BLOCK_TYPES)[number];
const CONTROL: ReadonlySet<string> = new Set(CONTROL_BLOCK_TYPES);
const isControl = (type: string): type is ControlBlockType => CONTROL.has(type);

/**
 * How the engine runs a block type: a control block by its own code, a model block by the model
 * layer (`MODEL_BLOCK_TYPES`, one runner per type), a trigger block passing the run's input on, and
 * every other block as a call of its catalogue tool. The replay test keeps a history of each.
 */
export type BlockKind = ControlBlockType | 'model' | 'trigger' | 'tool';

/** The kind of a block type (see `BlockKind`). */
export function blockKind(type: string): BlockKind {
  if (isControl(type)) return type;
  if (MODEL_BLOCK_TYPES.has(type)) return 'model';
  return getBlock(type)?.category === 'triggers' ? 'trigger' : 'tool';
}

/** Runs one block by its kind; references resolved first (a bad reference fails the block). */
export async function executeBlock(run: Run, frame: Frame, block: RunnableBlock): Promise<BlockRun> {
  const raw = subValues(block);
  const resolver = await resolverFor(run, frame, block.id, [raw, block.data?.collection]);
  const kind = blockKind(block.type);
  switch (kind) {
    case 'starter': {
      // A child run's input as its parent's log shows it (environment values as {{KEY}}).
      const shown = 'logInput' in run.args ? run.args.logInput : run.args.input;
      return { exec: { success: true, output: starterOutput(block, run.args) }, input: shown, ...('logInput' in run.args ? { logOutput: { input: shown } } : {}) };
    }
    case 'loop':
    case 'parallel':
      return runContainer(run, frame, block, resolver);
    case 'condition':
      return runCondition(run, frame, block, resolver);
    case 'function':
      return runFunction(run, block, resolver);
    case 'response':
      return runResponse(block, resolver);
    case 'workflow':
      return runChildWorkflow(run, frame, block, resolver);
    case 'model':
    case 'trigger':
    case 'tool':
      return runCall(run, frame, block, kind, raw, resolver);
    default: {
      const unreachable: never = kind;
      throw new Error(`Unknown block kind ${String(unreachable)}`);
    }
  }
}

/** A model, trigger or tool block: its values resolved as the call's parameters (the retry setting is the run's). */
async function runCall(run: Run, frame: Frame, block: RunnableBlock, kind: 'model' | 'trigger' | 'tool', raw: Record<string, unknown>, resolver: Resolver): Promise<BlockRun> {
  // The retry setting is the run's, not a parameter of the call (a remote tool would send it on).
  const { [RETRIES_FIELD.id]: retries, ...callValues } = raw;
  const params = resolveFields(callValues, resolver.scope, (id) => fieldLabel(block.type, id));
  // Password fields show masked; `{{KEY}}` references as written. The call gets the real values.
  const input = resolver.forLog(maskSecretFields(block.type, callValues));
  const secrets = secretValues(block.type, params);
  let ran: BlockRun;
  try {
    ran = await runCallWith(run, frame, block, kind, params, input, retries, resolver);
  } catch (err) {
    // Failed here rather than in the scheduler, so the log still knows the secrets to mask in the error.
    if (isCancellation(err)) throw err;
    ran = { exec: thrownFailure(err), input };
  }
  return secrets.length > 0 ? { ...ran, secrets } : ran;
}

async function runCallWith(
  run: Run,
  frame: Frame,
  block: RunnableBlock,
  kind: 'model' | 'trigger' | 'tool',
  params: Record<string, unknown>,
  input: unknown,
  retries: unknown,
  resolver: Resolver,
): Promise<BlockRun> {
  const resolvedRetries = block.advancedMode ? resolver.resolve(retries) : undefined;
  const badRetries = block.advancedMode ? retriesError({ [RETRIES_FIELD.id]: resolvedRetries }) : undefined;
  if (badRetries) return fail(badRetries, input);
  const maxAttempts = attemptsOf(block, retries, resolvedRetries);
  if (kind === 'model') return runModel(run, frame, block, params, input, maxAttempts);
  if (kind === 'trigger') return { exec: { success: true, output: { input: run.args.input } }, input };
  return runTool(run, block, params, input, maxAttempts);
}

/**
 * Patch: the retry setting is read as its validation reads it, resolved (a reference in it counts).
 * Runs recorded before read it as written (a reference: the default tries); asked only when the two differ.
 */
export const RETRIES_REFERENCE_PATCH = 'retries-reference';

/** Tries of a tool or model block's calls: its retry setting as resolved (runs recorded before the patch: as written). */
function attemptsOf(block: RunnableBlock, written: unknown, resolved: unknown): number {
  const asWritten = maxAttemptsOf(block, written);
  const asResolved = maxAttemptsOf(block, resolved);
  return asResolved !== asWritten && patched(RETRIES_REFERENCE_PATCH) ? asResolved : asWritten;
}

/**
 * Patch: a condition's `content` reads an output kept aside (over 256 KB) as its value. Runs recorded
 * before gave the reference's JSON (no `loadBlob`); asked only when the output holds a reference.
 */
export const CONDITION_CONTENT_BLOB_PATCH = 'condition-content-blob';

/**
 * A condition's `content` (001 §2): what flows into it, passed on: the `content` of the block that
 * leads into it when that is text (an agent's answer), else that block's output as JSON text; ''
 * when no block leads into it (the first block of a loop or parallel body).
 */
function incomingContent(run: Run, frame: Frame, block: RunnableBlock): string | Promise<string> {
  for (const edge of frame.scope.incoming.get(block.id) ?? []) {
    const stored = findOutput(frame, edge.source);
    if (!stored) continue;
    // Synchronous unless a kept-aside value is loaded (behind the patch): an `await` more on the
    // common path would end the block a microtask later than recorded runs did, which can reorder the
    // commands of blocks finishing in the same activation.
    if (stored.blobs && patched(CONDITION_CONTENT_BLOB_PATCH)) return hydrate(run, stored.value).then(contentOf);
    return contentOf(stored.value);
  }
  return '';
}

function contentOf(value: unknown): string {
  const content = (value as { content?: unknown } | null)?.content;
  return typeof content === 'string' ? content : (JSON.stringify(value) ?? '');
}

/**
 * A failed evaluation named by the condition it failed in, as its author wrote it: the sandbox's
 * 'Line x:y' counts lines of the program all conditions were put in, which is no place the author
 * can find, so it is left out when the condition is known.
 */
function conditionFailure(tested: ReadonlyArray<{ title: string; value: string }>, expressions: readonly string[], res: { error?: string; debug?: { line?: number } }): string {
  const message = res.error ?? 'unknown error';
  const at = res.debug?.line !== undefined ? conditionAtLine(expressions, res.debug.line) : undefined;
  const branch = at !== undefined ? tested[at] : undefined;
  if (!branch) return `Condition evaluation failed: ${message}`;
  return `Condition evaluation failed in "${branch.title}" (${branch.value.trim()}): ${message.replace(/^Line \d+:\d+ - /, '')}`;
}

/** How a message names a block's field: `System Prompt (systemPrompt)`, the id alone when the catalogue has no title (`fallback` then). */
function fieldLabel(type: string, id: string, fallback?: string): string {
  const title = getBlock(type)?.subBlocks.find((s) => s.id === id)?.title ?? fallback;
  return title ? `${title} (${id})` : id;
}

async function runCondition(run: Run, frame: Frame, block: RunnableBlock, resolver: Resolver): Promise<BlockRun> {
  const branches = parseConditions(block.subBlocks.conditions?.value ?? []);
  const elseAt = branches.findIndex((b) => b.title === 'else');
  const tested = elseAt === -1 ? branches : branches.slice(0, elseAt);
  const params: Record<string, unknown> = {};
  const logParams: Record<string, unknown> = {};
  const envKeys = new Set<string>();
  const rewrittenAll: RewrittenCode[] = [];
  const expressions = tested.map((b) => {
    const rewritten = inField(`condition "${b.title}"`, () => rewriteCode(b.value, resolver.scope));
    rewrittenAll.push(rewritten);
    Object.assign(params, rewritten.params);
    for (const k of rewritten.envKeys) envKeys.add(k);
    Object.assign(logParams, rewriteCode(b.value, resolver.logScope).params);
    return rewritten.code;
  });
  const input = { conditions: branches, references: logParams };
  const unknown = unknownReferenceIn(rewrittenAll);
  if (unknown !== undefined) return fail(unknown, input);
  let index = -1;
  let attempts: ReturnType<typeof attemptFields> | undefined;
  if (expressions.length > 0) {
    const fn = run.acts.integrations(FUNCTION_TIMEOUT_MS + FUNCTION_MARGIN_MS);
    const called = await withRetries(maxAttemptsOf(block), run.retryInitialMs, () =>
      fn.executeFunction({ code: conditionProgram(expressions), params, envVars: pickEnv(run.envVars, envKeys), timeoutMs: FUNCTION_TIMEOUT_MS, requestId: run.args.requestId }),
    );
    const res = called.value;
    attempts = attemptFields(called.attempts, called.tries);
    if (!res.success) return { exec: { success: false, output: null, error: conditionFailure(tested, expressions, res), ...attempts }, input };
    const result = 'result' in res.output ? res.output.result : undefined;
    index = typeof result === 'number' ? result : -1;
  }
  const chosen = index >= 0 ? tested[index] : elseAt >= 0 ? branches[elseAt] : undefined;
  const edge = chosen ? (frame.scope.outgoing.get(block.id) ?? []).find((e) => handleOf(e) === `condition-${chosen.id}`) : undefined;
  const target = edge ? run.graph.blocks[edge.target] : undefined;
  const incoming = incomingContent(run, frame, block);
  const output = {
    content: typeof incoming === 'string' ? incoming : await incoming,
    conditionResult: chosen !== undefined,
    selectedConditionId: chosen ? chosen.id : null,
    selectedPath: target ? { blockId: target.id, blockType: target.type, blockTitle: target.name } : null,
  };
  return { exec: { success: true, output, ...attempts }, input };
}

/**
 * A function or tool block's output over the run's threshold (256 KB, 8 KB once the run's inline
 * budget is spent: `inlineBudget.ts`) is kept aside by the integrations worker itself, which answers
 * its reference: no storing activity of the run's own (three history events and a workflow task fewer
 * per large output). An output that worker could not store comes back whole
 * and the run stores it (`shrink`). Taken once per call, before its tries: the call's number gives all
 * its tries one slot (a 5xx's large answer tried five times is stored once). The number only goes into
 * the activities' input, so histories recorded before replay unchanged.
 */
function storeLarge(run: Run): StoreLargeOutput {
  return { executionId: run.executionId, overLength: callKeepsAsideOver(run), call: ++run.storeCalls };
}

/**
 * Runs recorded before a function's timeout was checked ran the code with any positive timeout (a
 * fraction, over 300 s; the default for another value): they replay as they ran. Asked only when the
 * timeout fails the check, so other runs record no marker.
 */
export const FUNCTION_TIMEOUT_PATCH = 'function-timeout-checked';

async function runFunction(run: Run, block: RunnableBlock, resolver: Resolver): Promise<BlockRun> {
  const code = typeof block.subBlocks.code?.value === 'string' ? block.subBlocks.code.value : '';
  const rewritten = inField(fieldLabel(block.type, 'code', 'Code'), () => rewriteCode(code, resolver.scope));
  const timeoutValue = resolver.resolve(block.subBlocks.timeout?.value);
  const timeoutRaw = Number(timeoutValue);
  const timeoutMs = Number.isFinite(timeoutRaw) && timeoutRaw > 0 ? timeoutRaw : FUNCTION_TIMEOUT_MS;
  const input = { code, params: rewriteCode(code, resolver.logScope).params, timeoutMs };
  const unknown = unknownReferenceIn([rewritten]);
  if (unknown !== undefined) return fail(unknown, input);
  // The rule of POST /api/function/execute and of validation: a whole number from 1 to 300000 ms.
  const timeoutError = functionTimeoutError(timeoutValue);
  if (timeoutError !== undefined && patched(FUNCTION_TIMEOUT_PATCH)) return fail(timeoutError, input);
  const fn = run.acts.integrations(timeoutMs + FUNCTION_MARGIN_MS);
  const storeLargeOutput = storeLarge(run);
  const { value: res, ...called } = await withRetries(maxAttemptsOf(block), run.retryInitialMs, () =>
    fn.executeFunction({ code: rewritten.code, params: rewritten.params, envVars: pickEnv(run.envVars, rewritten.envKeys), timeoutMs, requestId: run.args.requestId, storeLargeOutput }),
  );
  const attempts = attemptFields(called.attempts, called.tries);
  if (res.success) return { exec: { success: true, output: res.output, ...attempts }, input };
  const output = { ...res.output, ...(res.debug ? { debug: res.debug } : {}) };
  return { exec: { success: false, output, error: res.error ?? 'Code execution failed', ...attempts }, input };
}

/**
 * Runs recorded before the header check succeeded with such a header (their caller got a 500): they replay as they ran.
 * Asked only when a header fails the check, so other runs record no marker.
 */
export const RESPONSE_HEADER_CHECK_PATCH = 'response-header-check';

/**
 * Runs recorded before a status below 200 failed the Response block answered with it (a 1xx left the
 * caller waiting): they replay as they ran. Asked only for such a status, so other runs record no marker.
 */
export const RESPONSE_STATUS_PATCH = 'response-status-interim';

/** A header name (an RFC 9110 token) and a header value as Node's HTTP server accepts them. */
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HTTP_HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

function runResponse(block: RunnableBlock, resolver: Resolver): BlockRun {
  const mode = resolver.resolve(block.subBlocks.dataMode?.value);
  const rawData = block.subBlocks.data?.value;
  const data =
    mode === 'structured'
      ? structureToObject(resolver.resolve(block.subBlocks.builderData?.value))
      : typeof rawData === 'string'
        ? resolveJsonText(rawData, resolver.scope)
        : resolver.resolve(rawData ?? null);
  const statusValue = resolver.resolve(block.subBlocks.status?.value);
  const statusRaw = Number(statusValue);
  const status = Number.isInteger(statusRaw) && statusRaw >= 100 && statusRaw <= 599 ? statusRaw : 200;
  const headers = tableToRecord(resolver.resolve(block.subBlocks.headers?.value));
  const response = { status, headers, data: data ?? null };
  const input = { data: typeof rawData === 'string' ? resolveJsonText(rawData, resolver.logScope) : resolver.forLog(rawData ?? null), status, headers: resolver.forLog(block.subBlocks.headers?.value) };
  // A status below 200 fails the block naming Status Code (a 1xx is interim: the caller would wait for
  // an answer that never comes); another one HTTP has no use for (600, text) still answers 200.
  const statusError = responseStatusError(statusValue);
  if (statusError !== undefined && Number.isInteger(statusRaw) && statusRaw < 200 && patched(RESPONSE_STATUS_PATCH)) return fail(statusError, input);
  // A header HTTP cannot carry fails the block here, with its name, rather than the answer to the caller.
  for (const [name, value] of Object.entries(headers)) {
    if (!HTTP_TOKEN.test(name) && patched(RESPONSE_HEADER_CHECK_PATCH)) return fail(`Response header "${name}" is not a valid HTTP header name`, input);
    if (!HTTP_HEADER_VALUE.test(value) && patched(RESPONSE_HEADER_CHECK_PATCH)) return fail(`Response header "${name}" has a value HTTP cannot carry (a line break or a character beyond Latin-1)`, input);
  }
  return { exec: { success: true, output: response, response }, input };
}

async function runTool(run: Run, block: RunnableBlock, params: Record<string, unknown>, input: unknown, maxAttempts: number): Promise<BlockRun> {
  const config = getBlock(block.type);
  const checked = validateBlockParams(block.type, params);
  if (!checked.success) return fail(checked.error, input);
  if (!config) return fail(`Unknown block type: ${block.type}`, input);
  let toolId: string | undefined;
  let toolParams: Record<string, unknown>;
  try {
    ({ toolId, params: toolParams } = blockToolCall(config, params));
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err), input);
  }
  if (!toolId) return fail(`Block type '${block.type}' has no tool to run`, input);
  const tools = run.acts.integrations(TOOL_TIMEOUT_MS);
  const id = toolId;
  let called: { value: ToolResult; attempts: number; tries: AttemptRecord[] };
  const storeLargeOutput = storeLarge(run);
  try {
    called = await withRetries(maxAttempts, run.retryInitialMs, () =>
      tools.executeTool({ toolId: id, params: toolParams, context: callContext(run, block), envVars: run.envVars, storeLargeOutput }),
    );
  } catch (err) {
    // A 429 or 5xx after the last try keeps that try's answer, as a 4xx does.
    const answered = err instanceof AttemptsExhausted ? keptAnswer(id, failureAnswer(err)) : undefined;
    if (!answered) throw err;
    return { exec: { ...thrownFailure(err), answered }, input: { toolId: id, params: input } };
  }
  const { value: res } = called;
  const attempts = attemptFields(called.attempts, called.tries);
  const answered = res.success ? undefined : keptAnswer(id, res.output);
  return { exec: { success: res.success, output: res.output, ...(res.error !== undefined ? { error: res.error } : {}), ...(answered ? { answered } : {}), ...attempts }, input: { toolId: id, params: input } };
}

async function runModel(run: Run, frame: Frame, block: RunnableBlock, params: Record<string, unknown>, input: unknown, maxAttempts: number): Promise<BlockRun> {
  const targets = targetsOf(run, frame, block);
  const ctx: BlockRunContext = {
    executionId: run.executionId,
    workflowId: run.args.workflowId,
    workspaceId: run.workspaceId,
    requestId: run.args.requestId,
    ...(run.args.actorId ? { actorId: run.args.actorId } : {}),
    integrationsTaskQueue: run.args.integrationsTaskQueue,
    envVars: run.envVars,
    // Only the blocks the catalogue says stream publish their tokens.
    stream: run.args.stream === true && STREAMING_BLOCK_TYPES.has(block.type),
    targets,
    maxAttempts,
    retryInitialMs: run.retryInitialMs,
  };
  const outcome = await runModelBlock(block, params, ctx);
  if (block.type === 'router' && outcome.success) {
    const selected = (outcome.output as { selectedPath?: { blockId?: unknown } } | null)?.selectedPath?.blockId;
    if (!targets.some((t) => t.blockId === selected)) {
      const names = targets.map((t) => t.blockTitle).join(', ') || 'none';
      return fail(`Router chose "${String(selected ?? '')}", which is not a block connected to it (connected: ${names})`, input);
    }
  }
  return { exec: outcome, input };
}
