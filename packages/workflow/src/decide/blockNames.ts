import { WorkflowError } from '../errors.js';
import { ownValue } from '../model/ownKeys.js';
import type { WorkflowGraph } from '../model/state.js';
import { normalizeName } from './guards.js';

/** What the rules read of a block (a stored block, or one a sync or YAML document describes). */
type Named = { name: string };

/** A reference's head that always reads a workflow variable (`<variable.x>`), never a block. */
const VARIABLE_HEAD = 'variable';

/**
 * Why `name` cannot name a block, or undefined. A block is referenced as `<name.field>` with its name
 * lowercased and spaces removed (§4 Rename block), so that form must be a reference's head: not blank
 * (a rename to one would rewrite `<function1.` to `<.`), with a letter or digit, without `.`, `<` or
 * `>` (the reference grammar stops there), and not `variable` (`<variable.…>` reads a variable).
 */
function blockNameProblem(name: string): string | undefined {
  const normalized = normalizeName(name);
  if (!/[\p{L}\p{N}]/u.test(normalized)) return `a block name needs a letter or digit (${JSON.stringify(name)} cannot be referenced)`;
  if (/[.<>]/.test(normalized)) return `a block name cannot contain ".", "<" or ">" (references read <blockname.field>)`;
  if (normalized === VARIABLE_HEAD) return `a block cannot be named ${JSON.stringify(name)}: <variable.…> reads workflow variables`;
  return undefined;
}

/** The block (other than `self`) whose name reads the same as `name` in a reference, if any. */
function sameNamed(blocks: Readonly<Record<string, Named>>, name: string, self?: string): [string, Named] | undefined {
  const normalized = normalizeName(name);
  return Object.entries(blocks).find(([id, block]) => id !== self && normalizeName(block.name) === normalized);
}

function clashReason(taken: Named, name: string): string {
  const how = taken.name === name ? '' : ' (names are compared lowercased, without spaces)';
  return `a block named ${JSON.stringify(taken.name)} already exists${how}`;
}

/**
 * Refuses a name a command gives one block (a rename, an add with a name): one no reference can
 * read, or one that reads as another block's, so two blocks would answer to `<agent1.…>`:
 * 'Invalid command: name: a block named "Agent 1" already exists'. For new commands only: stored
 * events that named two blocks alike fold as they are.
 */
function refuseBlockName(graph: WorkflowGraph, name: string, self?: string): void {
  const problem = blockNameProblem(name);
  if (problem !== undefined) throw new WorkflowError('validation', `Invalid command: name: ${problem}`);
  const taken = sameNamed(graph.blocks, name, self);
  if (taken !== undefined) throw new WorkflowError('validation', `Invalid command: name: ${clashReason(taken[1], name)}`);
}

/** `name`, or the first of `next(name)`, `next(next(name))`… that no block's name reads as. */
function freeBlockName(graph: { blocks: Readonly<Record<string, Named>> }, name: string, next: (name: string) => string): string {
  const taken = new Set(Object.values(graph.blocks).map((block) => normalizeName(block.name)));
  let candidate = name;
  // Bounded: each step takes a name not seen before, and at most every block's name is taken.
  for (let i = 0; i <= taken.size && taken.has(normalizeName(candidate)); i++) candidate = next(candidate);
  return candidate;
}

/** Whether `id` was stored with this name before the rules (the graph replaced, or the state copied). */
function namedBefore(graphs: ReadonlyArray<{ blocks: Readonly<Record<string, Named>> } | undefined>, id: string, name: string): boolean {
  return graphs.some((graph) => {
    const before = graph === undefined ? undefined : ownValue(graph.blocks, id);
    return before !== undefined && normalizeName(before.name) === normalizeName(name);
  });
}

/**
 * The first block of a whole new graph (a sync, a YAML import) whose name breaks the rules, with why.
 * A block keeping the name it had in the graph it replaces (or in a copied or earlier state), the same block
 * by id, is let be: a workflow stored before the rules still saves and imports as it is; it never
 * gains a new clash or unreferenceable name. `clash` marks a name that reads as another block's (a
 * YAML import renames that block instead of refusing).
 */
function firstBadBlockName(
  before: { blocks: Readonly<Record<string, Named>> },
  blocks: Readonly<Record<string, Named>>,
  copied: ReadonlyArray<{ blocks: Readonly<Record<string, Named>> }> = [],
): { id: string; reason: string; clash?: true } | undefined {
  const seen = new Map<string, [string, Named]>();
  for (const [id, block] of Object.entries(blocks)) {
    const kept = namedBefore([before, ...copied], id, block.name);
    const problem = kept ? undefined : blockNameProblem(block.name);
    if (problem !== undefined) return { id, reason: problem };
    const normalized = normalizeName(block.name);
    const first = seen.get(normalized);
    if (first === undefined) {
      seen.set(normalized, [id, block]);
      continue;
    }
    // Both kept as stored: a clash from before the rule. Otherwise the new one is named (the later if both are).
    const firstKept = namedBefore([before, ...copied], first[0], first[1].name);
    if (kept && firstKept) continue;
    const [badId, bad, other] = kept ? [first[0], first[1], [id, block] as const] : [id, block, first];
    return { id: badId, reason: `${clashReason(other[1], bad.name)} (${other[0]})`, clash: true };
  }
  return undefined;
}

export { blockNameProblem, refuseBlockName, freeBlockName, firstBadBlockName };
