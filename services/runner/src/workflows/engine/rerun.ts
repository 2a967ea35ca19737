import { patched } from '@temporalio/workflow';
import { ERROR_HANDLE, handleOf, type CompiledGraph } from '../graph.js';
import type { BlockLog, RerunOf } from '../types.js';
import type { Executed, Frame, Run, Stored } from './run.js';

/**
 * Patch: a reused loop's or parallel's body outputs of its last iteration or branch stay readable
 * after it, as after one that ran. Runs recorded before failed a block reading one ("has not run").
 */
export const RERUN_BODY_OUTPUTS_PATCH = 'rerun-body-outputs';
/**
 * Patch: a block that failed and took its error path is reused with its `{error}` output, and its
 * error path taken again. Runs recorded before ran it again.
 */
export const RERUN_ERROR_OUTPUTS_PATCH = 'rerun-error-outputs';

/** What a rerun takes from the earlier run instead of running it. */
export interface Reuse {
  outputs: Record<string, unknown>;
  /** Top-level blocks reused with their earlier output (they succeeded). */
  reused: ReadonlySet<string>;
  failedOutputs: Record<string, unknown>;
  /** Top-level blocks reused as failed: their `{error}` output takes their error path. */
  failed: ReadonlySet<string>;
  bodyOutputs: Record<string, unknown>;
}

/** The top-level container a block sits in (itself at the top level). */
function topLevelOf(graph: CompiledGraph, id: string): string {
  let top = id;
  for (let p = graph.parentOf.get(id); p !== undefined; p = graph.parentOf.get(p)) top = p;
  return top;
}

/** Blocks a rerun takes from the earlier run: every top-level block with an output that does not follow `fromBlockId`. */
export function reuseOf(graph: CompiledGraph, rerun: RerunOf): Reuse {
  const from = topLevelOf(graph, rerun.fromBlockId);
  const rerunning = new Set([from, ...graph.descendants(from)]);
  const upstream = (id: string) => graph.blocks[id] !== undefined && !graph.parentOf.has(id) && !rerunning.has(id);
  const reused = new Set(Object.keys(rerun.outputs).filter(upstream));
  const top = graph.scopes.get(null);
  const hasErrorPath = (id: string) => (top?.outgoing.get(id) ?? []).some((e) => handleOf(e) === ERROR_HANDLE);
  const failedOutputs = rerun.failedOutputs ?? {};
  // A failure without an error path ended the earlier run: that block runs again.
  const failed = Object.keys(failedOutputs).filter((id) => upstream(id) && !reused.has(id) && hasErrorPath(id));
  // Asked only when there is such a block: runs recorded before ran it again.
  const reusesFailed = failed.length > 0 && patched(RERUN_ERROR_OUTPUTS_PATCH);
  return { outputs: rerun.outputs, reused, failedOutputs, failed: new Set(reusesFailed ? failed : []), bodyOutputs: rerun.bodyOutputs ?? {} };
}

/** An earlier output as the run keeps it: one over 256 KB came back as a BlobRef, and references into it load the value. */
const storedOf = (value: unknown): Stored => ({ value, blobs: JSON.stringify(value ?? null).includes('"$blobRef"') });

/** A reused container's body outputs (its last iteration's or branch's), readable after it as `keepLast` leaves them. */
function keepBody(run: Run, frame: Frame, reuse: Reuse, containerId: string): void {
  const body = Object.entries(reuse.bodyOutputs).filter(([id]) => id !== containerId && run.graph.blocks[id] && topLevelOf(run.graph, id) === containerId);
  // Asked only when there are such outputs: runs recorded before left them unread ("has not run").
  if (body.length === 0 || !patched(RERUN_BODY_OUTPUTS_PATCH)) return;
  for (const [id, value] of body) frame.outputs.set(id, storedOf(value));
}

type LogBase = Pick<BlockLog, 'blockId' | 'blockName' | 'blockType' | 'loopIteration' | 'parallelBranch'>;

/**
 * A block a rerun takes from the earlier run: logged and reported as reused where it comes in the
 * run (before the blocks that read it), its earlier outcome returned. Undefined when it runs.
 */
export function reusedOutcome(run: Run, frame: Frame, base: LogBase, at: string): Executed | undefined {
  const reuse = run.reuse;
  const id = base.blockId;
  if (!reuse || (!reuse.reused.has(id) && !reuse.failed.has(id))) return undefined;
  if (reuse.reused.has(id)) {
    const output = reuse.outputs[id];
    const log: BlockLog = { ...base, startedAt: at, endedAt: at, durationMs: 0, success: true, output, reused: true };
    run.logs.push(log);
    run.emit({ type: 'blockCompleted', executionId: run.executionId, log });
    keepBody(run, frame, reuse, id);
    return { success: true, output, stored: storedOf(output) };
  }
  const output = reuse.failedOutputs[id] ?? null;
  const earlier = output !== null && typeof output === 'object' ? (output as { error?: unknown }).error : undefined;
  const error = typeof earlier === 'string' ? earlier : 'failed';
  const log: BlockLog = { ...base, startedAt: at, endedAt: at, durationMs: 0, success: false, output, error, reused: true };
  run.logs.push(log);
  run.emit({ type: 'blockError', executionId: run.executionId, log });
  return { success: false, output, error, message: `${base.blockName}: ${error}`, stored: storedOf(output) };
}
