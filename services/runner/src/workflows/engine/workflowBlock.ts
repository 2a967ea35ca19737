import { executeChild, isCancellation, patched, workflowInfo } from '@temporalio/workflow';
import type { RunnableBlock, RunnableState, RunResult } from '../types.js';
import type { BlockRun } from './blocks.js';
import { maskEnvValues } from './logMasking.js';
import { secretFormsPatched } from './secretFormsPatch.js';
import { secretOverlapPatched } from './secretOverlapPatch.js';
import type { Frame, Resolver, Run, RunWorkflowArgs } from './run.js';

/** Workflow-in-workflow nesting limit. */
export const MAX_WORKFLOW_DEPTH = 10;

const fail = (error: string, input?: unknown): BlockRun => ({ exec: { success: false, output: null, error }, input });

const cycleMessage = (path: readonly string[]) => `Workflow cycle refused: ${path.join(' → ')}`;
const depthMessage = () => `Workflow nesting deeper than ${MAX_WORKFLOW_DEPTH} levels refused`;

/** The workflows a state's workflow blocks name as plain ids (a reference is only known when it runs). */
function childIdsOf(state: RunnableState): string[] {
  const ids = Object.values(state.blocks)
    .filter((b) => b.type === 'workflow' && b.enabled !== false)
    .map((b) => b.subBlocks.workflowId?.value)
    .filter((v): v is string => typeof v === 'string' && v !== '' && !v.includes('<'));
  return [...new Set(ids)];
}

/**
 * Patch: a workflow met again deeper than where it was looked through is looked through again (its
 * chain may now pass the depth limit). Runs recorded before skipped it; asked only then.
 */
export const WORKFLOW_DEPTH_RECHECKED_PATCH = 'workflow-depth-rechecked';

/** Workflows looked through, with the shallowest depth each was met at, and the states loaded. */
interface Explored {
  depthOf: Map<string, number>;
  states: Map<string, RunnableState>;
}

/**
 * Looks through the workflows a child would run, before it starts: a cycle (A runs B runs A) or a
 * chain deeper than MAX_WORKFLOW_DEPTH is refused with its path. `path` ends with the child's id;
 * `depth` is the child's depth. A workflow that cannot be loaded is left for its own run to report.
 * A workflow already looked through is skipped unless met deeper now (less depth left below it).
 */
async function refusedNesting(run: Run, path: string[], state: RunnableState, depth: number, explored: Explored = { depthOf: new Map(), states: new Map() }): Promise<string | undefined> {
  for (const next of childIdsOf(state)) {
    if (path.includes(next)) return cycleMessage([...path, next]);
    const metAt = explored.depthOf.get(next);
    if (metAt !== undefined && (metAt >= depth + 1 || !patched(WORKFLOW_DEPTH_RECHECKED_PATCH))) continue;
    if (depth + 1 > MAX_WORKFLOW_DEPTH) return `${depthMessage()}: ${[...path, next].join(' → ')}`;
    let loaded = explored.states.get(next);
    if (!loaded) {
      try {
        loaded = (await run.acts.runner.loadChildWorkflow(run.workspaceId, next)).state;
      } catch (err) {
        if (isCancellation(err)) throw err;
        continue;
      }
      explored.states.set(next, loaded);
    }
    const found = await refusedNesting(run, [...path, next], loaded, depth + 1, explored);
    if (found) return found;
    explored.depthOf.set(next, depth + 1);
  }
  return undefined;
}

/**
 * The workflows from the top-level run down to this one, this run's own last. The API, reruns and
 * schedules start a run with its own id as the chain; a child run started before children were given
 * theirs has only the ones above it, and gets its own added.
 */
function callChainOf(args: { workflowId: string; callChain?: string[] }): string[] {
  const chain = args.callChain ?? [];
  return chain.at(-1) === args.workflowId ? [...chain] : [...chain, args.workflowId];
}

/** Suffix that makes a child workflow id unique per loop iteration and parallel branch. */
function iterationSuffix(frame: Frame): string {
  const parts = [...frame.loopIteration.map((i) => `l${i}`), ...frame.parallelBranch.map((i) => `p${i}`)];
  return parts.length > 0 ? `-${parts.join('.')}` : '';
}

/**
 * Patch: a failed workflow block's output keeps `{success, childWorkflowName, result}` beside its
 * `{error}`. Runs recorded before gave `{error}` only; asked only when a child failed.
 */
export const WORKFLOW_FAILURE_OUTPUT_PATCH = 'workflow-failure-output';

/** A workflow block: its child run started once the chain above and the workflows below pass the cycle and depth checks. */
export async function runChildWorkflow(run: Run, frame: Frame, block: RunnableBlock, resolver: Resolver): Promise<BlockRun> {
  const childId = resolver.resolve(block.subBlocks.workflowId?.value);
  const childInput = resolver.resolve(block.subBlocks.input?.value ?? null);
  const allForms = secretFormsPatched();
  const loggedInput = maskEnvValues(resolver.forLog(block.subBlocks.input?.value ?? null), run.envVars, allForms, allForms && secretOverlapPatched());
  const input = { workflowId: childId, input: loggedInput };
  if (typeof childId !== 'string' || childId === '') return fail('No workflow selected', input);
  const chain = callChainOf(run.args);
  if (chain.includes(childId)) return fail(cycleMessage([...chain, childId]), input);
  const depth = (run.args.depth ?? 0) + 1;
  if (depth > MAX_WORKFLOW_DEPTH) return fail(depthMessage(), input);
  const child = await run.acts.runner.loadChildWorkflow(run.workspaceId, childId);
  // The top-level run looks through the workflows below it once (those named by plain ids); its
  // children need not again, but for a workflow named by a reference, known only now.
  const rawId = block.subBlocks.workflowId?.value;
  const named = typeof rawId === 'string' && !rawId.includes('<');
  if (!run.args.nestingChecked || !named) {
    const refused = await refusedNesting(run, [...chain, childId], child.state, depth);
    if (refused) return fail(refused, input);
  }
  const childExecutionId = `${run.executionId}-${block.id}${iterationSuffix(frame)}`;
  const args: RunWorkflowArgs = {
    executionId: childExecutionId,
    workflowId: childId,
    state: child.state,
    input: childInput ?? null,
    // The child's run record and starter log show its input as this block's log does.
    ...(JSON.stringify(loggedInput) !== JSON.stringify(childInput ?? null) ? { logInput: loggedInput } : {}),
    requestId: run.args.requestId,
    workspaceId: run.workspaceId,
    ...(run.args.actorId ? { actorId: run.args.actorId } : {}),
    trigger: 'workflow',
    depth,
    callChain: [...chain, childId],
    nestingChecked: true,
    ...(run.args.stream ? { stream: true } : {}),
    integrationsTaskQueue: run.args.integrationsTaskQueue,
    ...(run.args.retryInitialIntervalMs !== undefined ? { retryInitialIntervalMs: run.args.retryInitialIntervalMs } : {}),
  };
  const result: RunResult = await executeChild('runWorkflow', { workflowId: childExecutionId, taskQueue: workflowInfo().taskQueue, args: [args] });
  const output = { success: result.success, childWorkflowName: child.name, result: result.output, error: result.error ?? null };
  if (!result.success) {
    // Kept beside {error} on the error path and in the log (runs recorded before: {error} only).
    const answered = patched(WORKFLOW_FAILURE_OUTPUT_PATCH) ? { success: false, childWorkflowName: child.name, result: result.output } : undefined;
    return { exec: { success: false, output, error: result.error ?? 'Child workflow failed', ...(answered ? { answered } : {}), ...(result.cost ? { cost: result.cost } : {}) }, input };
  }
  return { exec: { success: true, output, ...(result.cost ? { cost: result.cost } : {}), ...(result.tokens ? { tokens: result.tokens } : {}) }, input };
}
