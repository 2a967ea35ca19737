import { CancellationScope } from '@temporalio/workflow';
import { KEEP_ASIDE_OVER_BYTES } from '@weft/catalog';
import type { IntegrationActivities } from '@weft/contracts';
import type { CompiledGraph, Scope } from '../graph.js';
import { normalizeName, referencedNames, resolveValue, type IterationContext, type ReferenceScope } from '../references.js';
import { keepsAside, keptInline } from './inlineBudget.js';
import { ownIdsPatched } from './ownIdsPatch.js';
import { ownPathsPatched } from './ownPathsPatch.js';
import type { Reuse } from './rerun.js';
import { unknownEnvPatched } from './unknownEnvPatch.js';
import type { BlobRef, BlockLog, BlockOutcome, CostSummary, RunEvent, RunInput, RunnerActivities, RunResult, TokenUsage } from '../types.js';

/** Outputs (and run-log values) whose JSON is larger than this (UTF-8 bytes) are kept outside Temporal's history, passed as a BlobRef. */
export const BLOB_THRESHOLD_BYTES = KEEP_ASIDE_OVER_BYTES;

/** The arguments of a run (RunInput plus what the starter of the run decides). */
export interface RunWorkflowArgs extends RunInput {
  /** Task queue of the integrations worker (tools, functions, model calls). */
  integrationsTaskQueue: string;
  /** First retry backoff of transient tool/model failures (default 1 s); tests shorten it. */
  retryInitialIntervalMs?: number;
  /** Bytes the run keeps inline before values over 8 KB are kept aside too (default 1 MB, INLINE_BUDGET_BYTES); tests lower it. */
  inlineBudgetBytes?: number;
  /** Set on a child whose parent looked through the workflows it runs (no cycle, not too deep). */
  nestingChecked?: boolean;
  /**
   * A child run's input as logs show it (environment values as `{{KEY}}`), set when it differs from
   * `input`: the run's record and its starter's log show it; blocks read `input`.
   */
  logInput?: unknown;
}

/** The activities a run calls: integrations (per start-to-close timeout) and the runner's own. */
export interface EngineActivities {
  integrations(startToCloseMs: number): IntegrationActivities;
  runner: RunnerActivities;
}

/** A block's outcome inside the engine: the outcome plus where the run goes next. */
export interface Executed extends BlockOutcome {
  /** The run's error message when this failure ends the run (a container passes its body's on). */
  message?: string;
  /** Set by a Response block: what an API caller receives; the run ends. */
  response?: NonNullable<RunResult['response']>;
  /** The output as kept for the run (a BlobRef when it was large). */
  stored?: Stored;
  /** Fields of a failed call's answer kept in the block's output beside `{error}` (an HTTP request's data, status and headers). */
  answered?: Record<string, unknown>;
}

/** One stored output; `blobs` says whether it holds BlobRefs to load before it is read. */
export interface Stored {
  value: unknown;
  blobs: boolean;
}

/** One run of a scope: the top level, one loop iteration or one parallel branch. */
export interface Frame {
  scope: Scope;
  outputs: Map<string, Stored>;
  parent?: Frame;
  loop?: IterationContext;
  parallel?: IterationContext;
  loopIteration: number[];
  parallelBranch: number[];
}

/** Everything shared by the frames of one run. */
export interface Run {
  args: RunWorkflowArgs;
  executionId: string;
  workspaceId: string;
  graph: CompiledGraph;
  envVars: Record<string, string>;
  variables: Record<string, { type: string; value: unknown }>;
  acts: EngineActivities;
  logs: BlockLog[];
  /** A Response block ran: nothing new starts. */
  halted: boolean;
  response?: NonNullable<RunResult['response']>;
  /** Node scopes of running frames (a Response block cancels them all). */
  activeScopes: Set<CancellationScope>;
  cost: CostSummary;
  tokens: TokenUsage;
  /** Rerun: these blocks take their earlier outputs instead of running. */
  reuse?: Reuse;
  retryInitialMs: number;
  /** Function and tool calls asked to keep a large output aside so far: each call's number (StoreLargeOutput.call). */
  storeCalls: number;
  /** UTF-8 bytes of the values kept inline in the run's history so far (its budget: engine/inlineBudget.ts). */
  inlineBytes: number;
  emit(event: RunEvent): void;
}

export function isBlobRef(value: unknown): value is BlobRef {
  return value !== null && typeof value === 'object' && typeof (value as { $blobRef?: unknown }).$blobRef === 'string';
}

/** Keeps a value in the history when small (counted against the run's budget), else stores it and keeps its reference. */
export async function shrink(run: Run, value: unknown): Promise<Stored> {
  if (value === undefined) return { value, blobs: false };
  const json = JSON.stringify(value) ?? '';
  if (keepsAside(run, json)) {
    const ref = await run.acts.runner.storeBlob(run.executionId, value);
    return { value: ref, blobs: true };
  }
  keptInline(run, json);
  return { value, blobs: json.includes('"$blobRef"') };
}

/** Loads every BlobRef inside a value. */
export async function hydrate(run: Run, value: unknown): Promise<unknown> {
  if (isBlobRef(value)) return hydrate(run, await run.acts.runner.loadBlob(value));
  if (Array.isArray(value)) return Promise.all(value.map((v) => hydrate(run, v)));
  if (value !== null && typeof value === 'object') {
    const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await hydrate(run, v)] as const));
    return Object.fromEntries(entries);
  }
  return value;
}

export function findOutput(frame: Frame | undefined, blockId: string): Stored | undefined {
  for (let f = frame; f; f = f.parent) {
    const s = f.outputs.get(blockId);
    if (s) return s;
  }
  return undefined;
}

/** Blocks a reference name may mean; `start` also means the starter and the block the run started at. */
function blockIdsNamed(run: Run, name: string): string[] {
  const ids = run.graph.byName.get(name) ?? [];
  if (name !== 'start') return ids;
  const { starterId, entryId } = run.graph;
  return [...new Set([...ids, starterId, entryId])];
}

/** Which block a reference name means for the block reading it: the upstream one of that name. */
function pickUpstream(run: Run, name: string, readerId: string): { id: string } | { error: string } | undefined {
  const ids = blockIdsNamed(run, name);
  if (ids.length === 0) return undefined;
  const upstream = run.graph.ancestors(readerId);
  const id = ids.find((i) => upstream.has(i));
  if (id === undefined) {
    const named = run.graph.blocks[ids[0] as string]?.name ?? name;
    return { error: `block "${named}" is not upstream of "${run.graph.blocks[readerId]?.name ?? readerId}"` };
  }
  return { id };
}

/** A resolver for one block: references read upstream outputs, large ones loaded first. */
export interface Resolver {
  scope: ReferenceScope;
  logScope: ReferenceScope;
  resolve(value: unknown): unknown;
  /** The value as the log shows it (environment values as `{{KEY}}`). */
  forLog(value: unknown): unknown;
}

export async function resolverFor(run: Run, frame: Frame, readerId: string, values: unknown[]): Promise<Resolver> {
  const loaded = new Map<string, unknown>();
  const names = new Set<string>();
  for (const v of values) referencedNames(v, names);
  for (const name of names) {
    const picked = pickUpstream(run, name, readerId);
    if (!picked || 'error' in picked) continue;
    const stored = findOutput(frame, picked.id);
    if (stored?.blobs) loaded.set(picked.id, await hydrate(run, stored.value));
  }
  const block: ReferenceScope['block'] = (name) => {
    const picked = pickUpstream(run, name, readerId);
    if (!picked) return { kind: 'unknown' };
    if ('error' in picked) return { kind: 'error', reason: picked.error };
    if (loaded.has(picked.id)) return { kind: 'ok', value: loaded.get(picked.id) };
    const stored = findOutput(frame, picked.id);
    if (!stored) return { kind: 'error', reason: `block "${run.graph.blocks[picked.id]?.name ?? name}" has not run` };
    return { kind: 'ok', value: stored.value };
  };
  const scope: ReferenceScope = {
    block,
    variables: run.variables,
    inheritedVariables: () => !ownIdsPatched(),
    inheritedPaths: () => !ownPathsPatched(),
    envVars: run.envVars,
    unknownEnvFails: () => unknownEnvPatched(),
    ...(frame.loop ? { loop: frame.loop } : {}),
    ...(frame.parallel ? { parallel: frame.parallel } : {}),
  };
  const logScope: ReferenceScope = { ...scope, maskEnv: true };
  return { scope, logScope, resolve: (v) => resolveValue(v, scope), forLog: (v) => resolveValue(v, logScope) };
}

/** Variables by normalized name (a `<variable.name>` reference reads them). */
export function variablesByName(state: RunInput['state']): Record<string, { type: string; value: unknown }> {
  const out: Record<string, { type: string; value: unknown }> = {};
  for (const v of Object.values(state.variables ?? {})) out[normalizeName(v.name)] = { type: v.type, value: v.value };
  return out;
}

export function addUsage(run: Run, outcome: BlockOutcome): void {
  if (outcome.cost) {
    run.cost.input += outcome.cost.input;
    run.cost.output += outcome.cost.output;
    run.cost.total += outcome.cost.total;
  }
  if (outcome.tokens) {
    run.tokens.prompt += outcome.tokens.prompt;
    run.tokens.completion += outcome.tokens.completion;
    run.tokens.total += outcome.tokens.total;
  }
}
