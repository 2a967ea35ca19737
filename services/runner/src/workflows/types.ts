/**
 * Shapes shared by the runner's Temporal workflows, its activities and its API side.
 * Additive changes only: the engine, the run API and the model layer build on them at once.
 */
import type { Sinks } from '@temporalio/workflow';

/** The part of a workflow state a run needs (structurally compatible with @weft/workflow's state). */
export interface RunnableBlock {
  id: string;
  type: string;
  name: string;
  enabled: boolean;
  subBlocks: Record<string, { id: string; type: string; value: unknown }>;
  /** Container membership and settings (parentId, loopType, count, collection, parallelType, …). */
  data?: Record<string, unknown>;
  advancedMode?: boolean;
}

export interface RunnableEdge {
  id: string;
  source: string;
  target: string;
  sourceHandle?: string | null;
  targetHandle?: string | null;
}

export interface RunnableState {
  blocks: Record<string, RunnableBlock>;
  edges: RunnableEdge[];
  loops?: Record<string, { id: string; nodes: string[]; iterations?: number; loopType?: string; forEachItems?: unknown }>;
  parallels?: Record<string, { id: string; nodes: string[]; distribution?: unknown; count?: number; parallelType?: string }>;
  /** Workflow variables by id: `<variable.name>` references read them, typed by their type. */
  variables?: Record<string, { id: string; name: string; type: string; value: unknown }>;
}

/** What a rerun takes from the earlier run (executions.ts builds it from the run's block logs). */
export interface RerunOf {
  fromBlockId: string;
  /** Outputs of the top-level blocks that succeeded, by block id. */
  outputs: Record<string, unknown>;
  /** `{error}` outputs of the top-level blocks that failed: reused when the block has an error path (it took it). */
  failedOutputs?: Record<string, unknown>;
  /** Outputs of body blocks in their containers' last iteration or branch: readable after a reused container, as after one that ran. */
  bodyOutputs?: Record<string, unknown>;
}

/** What started a run. */
export type RunTrigger = 'manual' | 'api' | 'webhook' | 'schedule' | 'chat' | 'workflow';

export interface RunInput {
  executionId: string;
  workflowId: string;
  state: RunnableState;
  input: unknown;
  requestId: string;
  /** Workspace of the workflow (custom tools, memory, knowledge, environment variables). */
  workspaceId?: string;
  actorId?: string;
  trigger?: RunTrigger;
  /**
   * The trigger block whose webhook path or schedule started the run: the run starts at it (its
   * output `{input}`, as the starter's) unless the starter leads to it. Absent: the starter.
   */
  triggerBlockId?: string;
  /** The deployment version a deployed run runs; absent for a draft run. */
  deploymentVersion?: number;
  /** Run from a block: outputs of an earlier run reused for the blocks upstream of `fromBlockId`. */
  rerun?: RerunOf;
  /**
   * Depth of workflow-in-workflow nesting (0 for a top-level run; at most 10) and the chain of workflow
   * ids from the top-level run's down to this run's own (the last).
   */
  depth?: number;
  callChain?: string[];
  /** Publish model tokens of streaming blocks (`runChunksSubject`). */
  stream?: boolean;
  /** Set by the API, which records the run's row and `runStarted` before it starts the workflow. */
  startRecorded?: boolean;
}

/** Tokens of one model call or of a block's calls together. */
export interface TokenUsage {
  prompt: number;
  completion: number;
  total: number;
}

/** Cost of a block or a run in dollars (catalogue §9 pricing). */
export interface CostSummary {
  input: number;
  output: number;
  total: number;
}

/** One try of a block's activity call: when it started, how long it took, why it failed (absent for the try that answered). */
export interface AttemptRecord {
  attempt: number;
  startedAt: string;
  durationMs: number;
  error?: string;
  /** An agent's tries: which of its model calls (1 the first) this try belongs to. */
  call?: number;
  /** An agent's tries of a tool call: the tool's name as the model called it. */
  tool?: string;
  /** An agent's tries of a tool call: the call's place in the agent's `toolCalls` output (1 the first). */
  toolCall?: number;
}

/** What running one block produced; a failure is a value. */
export interface BlockOutcome {
  success: boolean;
  output: unknown;
  error?: string;
  tokens?: TokenUsage;
  cost?: CostSummary;
  /** Tool or model activity attempts (retries show in the log). */
  attempts?: number;
  /** Each try, when there was more than one. */
  attemptLog?: AttemptRecord[];
}

/** What a block executor gets besides its block and resolved parameters. */
export interface BlockRunContext {
  executionId: string;
  workflowId: string;
  workspaceId: string;
  requestId: string;
  actorId?: string;
  integrationsTaskQueue: string;
  /** The run's decrypted environment variables (never logged; the log shows `{{KEY}}`). */
  envVars: Record<string, string>;
  /** Whether this block's model tokens are published as stream chunks. */
  stream: boolean;
  /** Ids of the blocks connected from this block's outgoing edges (router targets), with names and types. */
  targets: Array<{ blockId: string; blockType: string; blockTitle: string }>;
  /** Retry attempts allowed for transient failures of this block's activities (default 3, advanced 0-5). */
  maxAttempts: number;
  /** Backoff before the second try, doubled for each later one (the run's; 1 s by default). */
  retryInitialMs?: number;
}

/** One block's entry in the run log. */
export interface BlockLog {
  blockId: string;
  blockName: string;
  blockType: string;
  startedAt: string;
  endedAt: string;
  durationMs: number;
  success: boolean;
  /** The block's parameters after references were resolved (environment values shown as `{{KEY}}`). */
  input?: unknown;
  output?: unknown;
  error?: string;
  attempts?: number;
  /** Each try of the block's activity call when it was retried: its start, duration and error. */
  attemptLog?: AttemptRecord[];
  tokens?: TokenUsage;
  cost?: CostSummary;
  /** Loop iteration and parallel branch indexes, outermost first, when the block ran inside containers. */
  loopIteration?: number[];
  parallelBranch?: number[];
  /** Skipped blocks (disabled or on a branch not taken) appear with this set. */
  skipped?: boolean;
  /** Rerun: the block did not run; its output is the earlier run's. */
  reused?: boolean;
  /** The block was cut short while it ran (the run cancelled, or a failure or Response ending what was in flight). */
  cancelled?: boolean;
}

export interface RunResult {
  success: boolean;
  output: unknown;
  logs: BlockLog[];
  error?: string;
  /** Set when a Response block ended the run: what an API caller receives. */
  response?: { status: number; headers: Record<string, string>; data: unknown };
  cost?: CostSummary;
  tokens?: TokenUsage;
  /** Run ended by a cancel request. */
  cancelled?: boolean;
  /** Set (and `logs` empty) when the logs were too large to travel inline: load them with `loadBlob`. */
  logsRef?: BlobRef;
}

/**
 * Progress of a run, recorded in the log and published (outbox + live stream) by the runner's activity.
 * The engine records each event by a local activity of its own, scheduled when the event happens, so
 * two events of one run may arrive at the recorder out of order: `ordinal` (1, 2, … per run, in the
 * order the events happened; `runCompleted` is recorded after all others) tells their true order.
 */
export type RunEvent = { ordinal?: number } & (
  | {
      type: 'runStarted';
      executionId: string;
      workflowId: string;
      at: string;
      /** What the runner needs to create the execution row when Temporal started the run itself (Schedules). */
      trigger?: RunTrigger;
      workspaceId?: string;
      deploymentVersion?: number;
      actorId?: string;
      input?: unknown;
      /** The state the run runs, kept on the row it creates so the run can be rerun (Schedules, child workflows). */
      state?: RunnableState;
    }
  | { type: 'blockStarted'; executionId: string; blockId: string; blockName: string; blockType: string; at: string; loopIteration?: number[]; parallelBranch?: number[] }
  | { type: 'blockCompleted'; executionId: string; log: BlockLog }
  | { type: 'blockError'; executionId: string; log: BlockLog }
  | { type: 'runCompleted'; executionId: string; workflowId: string; result: RunResult }
);

/**
 * A value kept outside Temporal's history (outputs over 256 KB), passed by reference: block
 * outputs, log inputs/outputs, `RunResult.output` and `response.data` may be one (or hold some).
 */
export interface BlobRef {
  $blobRef: string;
  bytes: number;
}

/** Activities the runner's own worker serves to its workflows (task queue `runnerTaskQueue`). */
/**
 * The run's log, handed over without waiting (a Temporal sink): block events of runs recorded since
 * the `run-events-by-sink` patch. Not part of the history; a crashed worker's last events may be lost,
 * and `runCompleted` then writes the block logs they carried.
 */
export interface RunLogSinks extends Sinks {
  runLog: {
    record(event: RunEvent): void;
    /** The run's `runCompleted` is scheduled in this activation: the events not written yet wait for it. */
    end(executionId: string): void;
  };
}

export interface RunnerActivities {
  /** Records one progress event of a run (log row, outbox event, live stream); idempotent per event. */
  recordRunEvent(event: RunEvent): Promise<void>;
  /** Stores a large value outside the history. */
  storeBlob(executionId: string, value: unknown): Promise<BlobRef>;
  loadBlob(ref: BlobRef): Promise<unknown>;
  /** The decrypted environment variables for one run: the workspace's, as the actor who started it sees them. */
  loadEnvironment(workspaceId: string, actorId?: string): Promise<Record<string, string>>;
  /**
   * A run's start, in one local activity (runs since the `run-start-with-environment` patch): records
   * `runStarted` and, when `environment` names whom for, loads the environment as `loadEnvironment`.
   */
  startRun(event: RunEvent, environment?: { workspaceId: string; actorId?: string }): Promise<Record<string, string>>;
  /** The state of another workflow of the same workspace, for a workflow block (draft, or deployed when it has one). */
  loadChildWorkflow(workspaceId: string, workflowId: string): Promise<{ name: string; state: RunnableState }>;
}
