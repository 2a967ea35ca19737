import { CancellationScope, condition, isCancellation } from '@temporalio/workflow';
import { ERROR_HANDLE, handleOf, type Scope } from '../graph.js';
import { failureMessage } from '../retry.js';
import type { BlockLog, RunnableEdge } from '../types.js';
import { executeBlock, thrownFailure } from './blocks.js';
import { logMasks, maskLogText, maskLogValue, stateSecrets } from './logMasking.js';
import { reusedOutcome } from './rerun.js';
import { secretFormsPatched } from './secretFormsPatch.js';
import { secretOverlapPatched } from './secretOverlapPatch.js';
import { addUsage, shrink, type Executed, type Frame, type Run, type Stored } from './run.js';

/** How a frame ended: its last finished block's output, or the message that failed it. */
export interface FrameResult {
  success: boolean;
  error?: string;
  /** Output of the block that finished last (a loop iteration's or branch's result). */
  last: Stored | undefined;
}

type NodeStatus = 'pending' | 'running' | 'done' | 'skipped' | 'unreached';

function reachableFrom(scope: Scope): Set<string> {
  const seen = new Set(scope.entries);
  const stack = [...scope.entries];
  while (stack.length > 0) {
    for (const e of scope.outgoing.get(stack.pop() as string) ?? []) {
      if (!seen.has(e.target)) {
        seen.add(e.target);
        stack.push(e.target);
      }
    }
  }
  return seen;
}

/** Whether an edge fires after its source finished with this outcome. */
export function fires(edge: RunnableEdge, outcome: Executed): boolean {
  const handle = handleOf(edge);
  if (!outcome.success) return handle === ERROR_HANDLE;
  if (handle === ERROR_HANDLE) return false;
  const output = outcome.output as Record<string, unknown> | null | undefined;
  if (handle.startsWith('condition-')) return output?.selectedConditionId !== undefined && handle === `condition-${String(output.selectedConditionId)}`;
  const selected = (output?.selectedPath as { blockId?: unknown } | null | undefined)?.blockId;
  if (handle.startsWith('router-')) return selected !== undefined && handle === `router-${String(selected)}`;
  // A router's plain edges fire only toward the block it chose; a condition's plain edges never.
  if (output && 'selectedConditionId' in output) return false;
  if (selected !== undefined && output && 'selectedPath' in output) return edge.target === selected;
  return true;
}

function where(frame: Frame): Pick<BlockLog, 'loopIteration' | 'parallelBranch'> {
  return {
    ...(frame.loopIteration.length > 0 ? { loopIteration: frame.loopIteration } : {}),
    ...(frame.parallelBranch.length > 0 ? { parallelBranch: frame.parallelBranch } : {}),
  };
}

/** Runs one block: events, log, large values stored aside. Failures are values; cancellation propagates. */
async function runBlock(run: Run, frame: Frame, id: string): Promise<Executed> {
  const block = run.graph.blocks[id];
  if (!block) return { success: false, output: null, error: `Block ${id} not found` };
  const at = new Date(Date.now()).toISOString();
  const base = { blockId: id, blockName: block.name, blockType: block.type, ...where(frame) };
  const reused = reusedOutcome(run, frame, base, at);
  if (reused) return reused;
  run.emit({ type: 'blockStarted', executionId: run.executionId, blockId: id, blockName: block.name, blockType: block.type, at, ...where(frame) });
  const started = Date.now();
  let exec: Executed;
  let input: unknown;
  let logOutput: unknown;
  let secrets: string[] | undefined;
  try {
    ({ exec, input, logOutput, secrets } = await executeBlock(run, frame, block));
  } catch (err) {
    if (isCancellation(err)) {
      // Cut short (the run cancelled, a failure or a Response ending what is in flight): logged as cancelled, not failed.
      const ended = Date.now();
      const cancelledLog: BlockLog = { ...base, startedAt: new Date(started).toISOString(), endedAt: new Date(ended).toISOString(), durationMs: ended - started, success: false, cancelled: true };
      run.logs.push(cancelledLog);
      run.emit({ type: 'blockError', executionId: run.executionId, log: cancelledLog });
      throw err;
    }
    exec = thrownFailure(err);
  }
  // Environment values show as {{KEY}}, the secrets typed into the workflow and the block's own as [REDACTED], wherever they got in
  // (in every encoded form behind patch secret-forms, texts that overlap masked whole behind secret-overlap: the masks
  // decide the {error} output and what is kept aside).
  const allForms = secretFormsPatched();
  const masks = logMasks(run.envVars, [...stateSecrets(run.args.state), ...(secrets ?? [])], allForms, allForms && secretOverlapPatched());
  if (!exec.success) {
    const prior = exec.output !== null && typeof exec.output === 'object' ? (exec.output as Record<string, unknown>) : {};
    const extra = Object.fromEntries(Object.entries(prior).filter(([k]) => k === 'debug' || k === 'results' || k === 'timing'));
    // Error texts never carry a secret (they reach the log, the run's error and `{error}` outputs).
    const error = maskLogText(exec.error ?? 'failed', masks);
    exec = { ...exec, ...(exec.error !== undefined ? { error } : {}), output: { error, ...extra, ...exec.answered }, message: maskLogText(exec.message ?? `${block.name}: ${error}`, masks) };
  }
  const ended = Date.now();
  // The blocks after this one read the real output; the log shows it masked.
  const [output, loggedInput] = await Promise.all([shrink(run, exec.output), shrink(run, maskLogValue(input, masks))]);
  // An output kept aside (a reference) is logged as that reference.
  const loggedOutput = output.value === exec.output ? maskLogValue(logOutput ?? exec.output, masks) : output.value;
  const log: BlockLog = {
    ...base,
    startedAt: new Date(started).toISOString(),
    endedAt: new Date(ended).toISOString(),
    durationMs: ended - started,
    success: exec.success,
    ...(loggedInput.value !== undefined ? { input: loggedInput.value } : {}),
    output: loggedOutput,
    ...(exec.error !== undefined ? { error: exec.error } : {}),
    ...(exec.attempts !== undefined ? { attempts: exec.attempts } : {}),
    ...(exec.attemptLog ? { attemptLog: exec.attemptLog.map((t) => (t.error === undefined ? t : { ...t, error: maskLogText(t.error, masks) })) } : {}),
    ...(exec.tokens ? { tokens: exec.tokens } : {}),
    ...(exec.cost ? { cost: exec.cost } : {}),
  };
  run.logs.push(log);
  addUsage(run, exec);
  run.emit({ type: exec.success ? 'blockCompleted' : 'blockError', executionId: run.executionId, log });
  return { ...exec, output: output.value, stored: output };
}

/**
 * Runs one scope as a graph: every block whose active incoming edges are all done starts at once;
 * a block none of whose incoming edges fired is skipped, and so is what only it feeds; a failure
 * without an `error` edge fails the frame (first error kept), starts nothing new and cancels what
 * is in flight. Never throws but for cancellation of the whole run.
 */
export async function runFrame(run: Run, frame: Frame): Promise<FrameResult> {
  const { scope } = frame;
  const reachable = reachableFrom(scope);
  const status = new Map<string, NodeStatus>(scope.nodes.map((n) => [n, reachable.has(n) ? 'pending' : 'unreached']));
  const edgeFired = new Map<string, boolean>();
  const entries = new Set(scope.entries);
  const nodes = new CancellationScope();
  run.activeScopes.add(nodes);
  let inflight = 0;
  let failure: string | undefined;
  let last: Stored | undefined;

  const settle = (id: string, exec: Executed | 'cancelled') => {
    inflight -= 1;
    if (exec === 'cancelled') {
      status.set(id, 'done');
      return;
    }
    status.set(id, 'done');
    const outgoing = scope.outgoing.get(id) ?? [];
    const hasErrorPath = outgoing.some((e) => handleOf(e) === ERROR_HANDLE);
    if (!exec.success && !hasErrorPath) {
      if (failure === undefined) failure = exec.message ?? exec.error ?? 'failed';
      nodes.cancel();
      return;
    }
    const stored = exec.stored ?? { value: exec.output, blobs: false };
    frame.outputs.set(id, stored);
    last = stored;
    // The first Response to complete answers the caller; one completing after it (another parallel
    // branch, another path) is logged but changes nothing.
    if (exec.response && !run.response) {
      run.response = exec.response;
      run.halted = true;
      for (const s of run.activeScopes) s.cancel();
    }
    for (const e of outgoing) edgeFired.set(e.id, fires(e, exec));
    schedule();
  };

  const skip = (id: string) => {
    status.set(id, 'skipped');
    const block = run.graph.blocks[id];
    if (block) {
      const at = new Date(Date.now()).toISOString();
      run.logs.push({ blockId: id, blockName: block.name, blockType: block.type, startedAt: at, endedAt: at, durationMs: 0, success: true, skipped: true, ...where(frame) });
    }
    for (const e of scope.outgoing.get(id) ?? []) edgeFired.set(e.id, false);
  };

  const start = (id: string) => {
    status.set(id, 'running');
    inflight += 1;
    const running = nodes.run(() => runBlock(run, frame, id));
    void running.then(
      (exec) => settle(id, exec),
      (err: unknown) => settle(id, isCancellation(err) ? 'cancelled' : { success: false, output: null, error: failureMessage(err) }),
    );
  };

  function schedule(): void {
    let progressed = true;
    while (progressed && failure === undefined && !run.halted) {
      progressed = false;
      for (const id of scope.nodes) {
        if (status.get(id) !== 'pending') continue;
        const incoming = (scope.incoming.get(id) ?? []).filter((e) => status.get(e.source) !== 'unreached');
        if (incoming.some((e) => !edgeFired.has(e.id))) continue;
        const active = entries.has(id) || incoming.some((e) => edgeFired.get(e.id) === true);
        if (!active || run.graph.blocks[id]?.enabled === false) skip(id);
        else start(id);
        progressed = true;
      }
    }
  }

  try {
    schedule();
    await condition(() => inflight === 0);
  } finally {
    run.activeScopes.delete(nodes);
  }
  return failure === undefined ? { success: true, last } : { success: false, error: failure, last };
}
