import type { DecideContext } from '../context.js';
import { WorkflowError } from '../errors.js';
import { ownValue } from '../model/ownKeys.js';
import type { WorkflowGraph } from '../model/state.js';
import { STARTER_TYPE } from './oneStarter.js';

/** What the rule reads of a block (a stored block, one a command adds, or one a YAML document describes). */
type Placed = { type: string; name: string; parentId?: string | undefined };

/** A catalogue category whose blocks start runs (schedule, webhook); they and the starter stay at the top level. */
const TRIGGER_CATEGORY = 'triggers';

/** Whether blocks of this type start runs: the starter, and the catalogue's `triggers` category. */
function isTrigger(type: string, ctx: DecideContext): boolean {
  return type === STARTER_TYPE || ctx.blockDefinition(type)?.category === TRIGGER_CATEGORY;
}

/** '"Schedule 1" (sch1) is a trigger block (schedule); a trigger cannot be placed inside a loop or parallel'. */
function nestedTriggerReason(id: string, block: Placed): string {
  return `"${block.name}" (${id}) is a trigger block (${block.type}); a trigger cannot be placed inside a loop or parallel`;
}

/**
 * Refuses giving a trigger block (the starter, a schedule, a webhook) a parent: a trigger starts a
 * run, so inside a loop or parallel it would start nothing the container runs. `field` names what
 * carried the parent in the command: 'Invalid command: parentId: "Schedule 1" (sch1) is a trigger
 * block (schedule); a trigger cannot be placed inside a loop or parallel'. For new commands only:
 * stored events that nested one (before the rule) fold as they are.
 */
function refuseNestedTrigger(id: string, block: Placed, ctx: DecideContext, field = 'parentId'): void {
  if (block.parentId === undefined || !isTrigger(block.type, ctx)) return;
  throw new WorkflowError('validation', `Invalid command: ${field}: ${nestedTriggerReason(id, block)}`);
}

/** Whether the graph already holds this block as a nested trigger of the same type (stored before the rule). */
function nestedBefore(graph: { blocks: WorkflowGraph['blocks'] } | undefined, id: string, type: string): boolean {
  const block = graph === undefined ? undefined : ownValue(graph.blocks, id);
  return block !== undefined && block.type === type && block.data.parentId !== undefined;
}

/**
 * The first trigger a whole new graph (a sync, a YAML import) nests in a container, if any. A trigger
 * nested in the graph it replaces (or in a copied or earlier state), the same block by id, stored before the
 * rule, is kept as it is: such a workflow still saves, and its YAML still imports; it never gains one.
 */
function firstNestedTrigger(
  before: WorkflowGraph,
  blocks: Readonly<Record<string, Placed>>,
  ctx: DecideContext,
  copied: ReadonlyArray<{ blocks: WorkflowGraph['blocks'] }> = [],
): { id: string; reason: string } | undefined {
  for (const [id, block] of Object.entries(blocks)) {
    if (block.parentId === undefined || !isTrigger(block.type, ctx)) continue;
    if (nestedBefore(before, id, block.type) || copied.some((graph) => nestedBefore(graph, id, block.type))) continue;
    return { id, reason: nestedTriggerReason(id, block) };
  }
  return undefined;
}

export { TRIGGER_CATEGORY, isTrigger, refuseNestedTrigger, firstNestedTrigger };
