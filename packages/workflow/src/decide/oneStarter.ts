import { WorkflowError } from '../errors.js';
import { ownValue } from '../model/ownKeys.js';
import type { WorkflowGraph } from '../model/state.js';

/** What the rule reads of a block (a stored block, or one a YAML document describes). */
type Named = { type: string; name: string };
type Starter = { id: string; name: string };

/** The block every workflow starts from (§9); a workflow has one (issue 13). */
const STARTER_TYPE = 'starter';
/** The rule a refusal quotes; the browser keeps it too (clipboard, block panel). */
const ONE_STARTER = 'a workflow can have only one starter block';

/** Keyed by block id, as state and YAML keep blocks. */
function startersOf(blocks: Readonly<Record<string, Named>>): Starter[] {
  return Object.entries(blocks)
    .filter(([, block]) => block.type === STARTER_TYPE)
    .map(([id, block]) => ({ id, name: block.name }));
}

const label = (block: Starter): string => `"${block.name}" (${block.id})`;

/**
 * Refuses adding (or duplicating) a starter to a workflow that has one: 'A workflow can have only one
 * starter block: it already has "Start" (start)'.
 */
function refuseAnotherStarter(graph: WorkflowGraph, type: string): void {
  if (type !== STARTER_TYPE) return;
  const [existing] = startersOf(graph.blocks);
  if (existing === undefined) return;
  throw new WorkflowError('validation', `A workflow can have only one starter block: it already has ${label(existing)}`);
}

/**
 * The starters of a whole new graph (a sync, a YAML import) when they break the rule: more than one,
 * and more than the graph it replaces had. A workflow stored with two before the rule (issue 13)
 * still loads, edits and saves as it is; it just never gains another. A copy of a stored state
 * (`copied`, a duplicate, issue 14) may carry that state's own starters, the same blocks by id,
 * as they are: what the user sees is what the copy gets.
 */
function extraStarters(before: WorkflowGraph, blocks: Readonly<Record<string, Named>>, stored: ReadonlyArray<{ blocks: Readonly<Record<string, Named>> }> = []): Starter[] | undefined {
  const after = startersOf(blocks);
  if (after.length <= Math.max(1, startersOf(before.blocks).length)) return undefined;
  // A state stored before the rule (a copy's source, one the workflow's own history holds) had them all.
  if (stored.some((state) => after.every((s) => ownValue(state.blocks, s.id)?.type === STARTER_TYPE))) return undefined;
  return after;
}

/** 'a workflow can have only one starter block, found 2: "Start" (start), "Start 1" (s2)'. */
function describeStarters(starters: readonly Starter[]): string {
  return `${ONE_STARTER}, found ${starters.length}: ${starters.map(label).join(', ')}`;
}

export { STARTER_TYPE, refuseAnotherStarter, extraStarters, describeStarters };
