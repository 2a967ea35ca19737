/**
 * Temporal activity contracts between the runner's workflows and the integrations worker.
 * Workflows import these as types only; the integrations service implements them.
 *
 * Additive changes only: several parts of the code base (runner engine, tool runtime, model layer)
 * build on these shapes at the same time.
 */

/** Runs a function block's code in the sandbox. */
export interface ExecuteFunctionInput {
  code: string;
  params: Record<string, unknown>;
  envVars: Record<string, string>;
  timeoutMs: number;
  requestId?: string;
  /** A successful output longer than asked is kept aside among this run's values and answered as its reference. */
  storeLargeOutput?: StoreLargeOutput;
}

/** A value kept aside in the runner's stored values (`run_blobs`), passed by reference. */
export interface StoredValueRef {
  $blobRef: string;
  bytes: number;
}

/**
 * Asks an integrations activity to keep a large output aside itself (the runner's StoreValue call)
 * and answer its reference: the run then needs no activity of its own to store it.
 */
export interface StoreLargeOutput {
  executionId: string;
  /**
   * Outputs whose JSON text is longer than this many UTF-8 bytes are kept aside: the run's own threshold
   * (`KEEP_ASIDE_OVER_BYTES` of `@weft/catalog`, 256 KB; 8 KB once the run has kept its inline budget,
   * 1 MB, inline: `callKeepsAsideOver` in the runner's `engine/inlineBudget.ts`).
   */
  overLength: number;
  /**
   * Which call of the run this is, the same for every try of it (the run tries a call again as a new
   * activity): the worker keeps a try's value in the call's one slot, so tries overwrite it. Without
   * it the slot is the activity's own.
   */
  call?: number;
}

/** What the function activity answers: the function's output, or its reference when it was kept aside. */
export type FunctionActivityOutput = Omit<ExecuteFunctionOutput, 'output'> & { output: ExecuteFunctionOutput['output'] | StoredValueRef };

/** Timing of one tool or block call (spec 000 §3, tool result). */
export interface Timing {
  startTime: string;
  endTime: string;
  duration: number;
}

/** What a sandboxed function answers: a failure is a value, never a throw. */
export interface ExecuteFunctionOutput {
  success: boolean;
  output: { result: unknown; stdout: string };
  error?: string;
  timing: Timing;
  /** Where a failing function failed ('Line x:y - message' errors), spec 000 §7. */
  debug?: FunctionDebug;
}

export interface FunctionDebug {
  line?: number;
  column?: number;
  errorType?: string;
  stack?: string;
}

/** Who and what a tool or model call runs for (scopes memory, knowledge, custom tools, credentials). */
export interface CallContext {
  workspaceId: string;
  workflowId: string;
  /** The run (execution id); absent for calls outside a run (the proxy route, the copilot). */
  executionId?: string;
  /** The block the call belongs to, for logs and stream chunks. */
  blockId?: string;
  requestId?: string;
  /** The user the run acts for (credential ownership checks). */
  actorId?: string;
}

/** Every tool outcome (spec 000 §3 "Tool result"): a failure is a value, nothing is thrown. */
export interface ToolResult<T = unknown> {
  success: boolean;
  output: T;
  error?: string;
  timing: Timing;
}

/** One tool call through the execution layer (spec 000 §4 "Tool execution order"). */
export interface ExecuteToolInput {
  /** A catalogue tool id (`slack_message`, `http_request`, …) or `custom_<id>` for a workspace's custom tool. */
  toolId: string;
  params: Record<string, unknown>;
  context: CallContext;
  /** The run's decrypted environment variables ({{KEY}} in custom tools); never logged. */
  envVars?: Record<string, string>;
  /** Skip the tool's post-processing (spec 000 §4). */
  skipPostProcess?: boolean;
  /** A successful output longer than asked is kept aside among this run's values and answered as its reference. */
  storeLargeOutput?: StoreLargeOutput;
  /**
   * Which call of the calling workflow this is, the same for every try of it (the engines try a call
   * again as a new activity, with a new activity id): a polling job one try started is joined by the
   * others instead of started again. The agent tool loop gives its tool call's number; the runner's
   * blocks give their run's call number as `storeLargeOutput.call`, which stands for it when this is
   * absent. Without either the call is the activity's own (Temporal's retries of it join its job).
   */
  call?: number;
}

/**
 * The first detail of the retryable failure `executeTool` throws for a transient failure that got an
 * answer (an HTTP request's 429 or 5xx): what that try's call answered (data, status, headers; a long
 * `data` kept aside as a StoredValueRef), so the run keeps the last try's answer as it keeps a 4xx's.
 */
export interface ToolFailureDetails {
  output?: unknown;
}

/** The activities served on the integrations task queue. Model-layer activities are added beside these. */
export interface IntegrationActivities {
  executeFunction(input: ExecuteFunctionInput): Promise<FunctionActivityOutput>;
  /** Runs one tool through the execution layer; transient failures (network, timeout, 429, 5xx) throw a retryable error, answered errors come back as `success: false`. */
  executeTool(input: ExecuteToolInput): Promise<ToolResult>;
}

/** Task queue names, prefixed by the instance so stacks can share one Temporal. */
export function integrationsTaskQueue(instance: string): string {
  return `${instance}-integrations`;
}

export function runnerTaskQueue(instance: string): string {
  return `${instance}-runner`;
}

/**
 * Core NATS subject on which model tokens of one run are published while a model writes them
 * (payload: JSON `RunStreamChunk`); the run's SSE stream relays them as `stream:chunk`.
 */
export function runChunksSubject(instance: string, executionId: string): string {
  return `${instance}.runner.chunks.${executionId}`;
}

/** One streamed piece of a model's answer. */
export interface RunStreamChunk {
  executionId: string;
  blockId: string;
  /** Increasing per block, from 0, so a reader can order and drop duplicates. */
  seq: number;
  chunk: string;
  /** A tool call's state change (spec 000 §4: detecting, executing, completed, error); `chunk` is then ''. */
  toolCall?: { id: string; name: string; state: 'detecting' | 'executing' | 'completed' | 'error' };
  /**
   * A retried model call whose new answer differs from what the failed try had streamed: the text of
   * this block's chunks from `fromSeq` on is void, and this chunk's text stands in its place. A retry
   * that repeats what was sent sends nothing again and goes on from where the client is.
   */
  restart?: { fromSeq: number };
}
