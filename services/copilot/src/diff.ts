import { randomUUID } from 'node:crypto';
import { getBlock } from '@weft/catalog';
import { decideAndApply, initialState, type BlockState, type Edge } from '@weft/workflow';
import type { GraphState } from './types.js';

/** What a proposed edit changes (blocks by id; edges by their ends and handles). */
export interface WorkflowDiff {
  blocks: {
    added: Array<{ id: string; type: string; name: string }>;
    removed: Array<{ id: string; type: string; name: string }>;
    changed: Array<{ id: string; type: string; name: string; fields: string[] }>;
  };
  edges: { added: EdgeEnds[]; removed: EdgeEnds[] };
  /** What the import leaves out to keep the rules (a second starter) and why, when it does. */
  warnings?: string[];
}

type EdgeEnds = { source: string; target: string; sourceHandle?: string; targetHandle?: string };

/**
 * The graph a YAML document describes, checked by the same decide the editor runs against the
 * workflow's current blocks (`current`), as an applied edit is: what a workflow stored before a rule
 * keeps (two starters, a nested trigger, an old name clash) passes here as it does there; `warnings`
 * say what the import leaves out (a second starter), as the applied edit's do. Invalid YAML throws
 * its WorkflowError.
 */
export function graphOfYaml(yamlContent: string, current?: GraphState): GraphState & { warnings: string[] } {
  const before = current === undefined ? initialState() : { ...initialState(), blocks: current.blocks as Record<string, BlockState>, edges: current.edges as Edge[] };
  const { events } = decideAndApply(before, [{ type: 'importYaml', yamlContent }], { now: Date.now(), newId: randomUUID, blockDefinition: getBlock });
  const imported = events[0];
  if (imported?.type !== 'yamlImported') return { blocks: {}, edges: [], warnings: [] };
  return { blocks: imported.blocks, edges: imported.edges, warnings: imported.warnings ?? [] };
}

/** The diff of a proposed edit from `current`, with the warnings of what its import would leave out. */
export function proposedDiff(yamlContent: string, current: GraphState): WorkflowDiff {
  const proposed = graphOfYaml(yamlContent, current);
  const diff = diffGraphs(current, proposed);
  return proposed.warnings.length === 0 ? diff : { ...diff, warnings: proposed.warnings };
}

function asBlock(value: unknown): Pick<BlockState, 'type' | 'name' | 'subBlocks' | 'enabled' | 'data'> {
  return value as BlockState;
}

function ends(e: unknown): EdgeEnds {
  const edge = e as Edge;
  return {
    source: edge.source,
    target: edge.target,
    ...(edge.sourceHandle ? { sourceHandle: edge.sourceHandle } : {}),
    ...(edge.targetHandle ? { targetHandle: edge.targetHandle } : {}),
  };
}

const edgeKey = (e: EdgeEnds) => `${e.source}\u0000${e.sourceHandle ?? ''}\u0000${e.target}\u0000${e.targetHandle ?? ''}`;

function changedFields(before: ReturnType<typeof asBlock>, after: ReturnType<typeof asBlock>): string[] {
  const fields: string[] = [];
  if (before.type !== after.type) fields.push('type');
  if (before.name !== after.name) fields.push('name');
  if ((before.enabled ?? true) !== (after.enabled ?? true)) fields.push('enabled');
  if ((before.data?.parentId ?? null) !== (after.data?.parentId ?? null)) fields.push('parentId');
  const ids = new Set([...Object.keys(before.subBlocks ?? {}), ...Object.keys(after.subBlocks ?? {})]);
  for (const id of [...ids].sort()) {
    const a = before.subBlocks?.[id]?.value ?? null;
    const b = after.subBlocks?.[id]?.value ?? null;
    if (JSON.stringify(a) !== JSON.stringify(b)) fields.push(`inputs.${id}`);
  }
  return fields;
}

/** Blocks added, removed and changed, and edges added and removed, from `before` to `after` (positions ignored). */
export function diffGraphs(before: GraphState, after: GraphState): WorkflowDiff {
  const label = (id: string, b: unknown) => ({ id, type: asBlock(b).type, name: asBlock(b).name });
  const diff: WorkflowDiff = { blocks: { added: [], removed: [], changed: [] }, edges: { added: [], removed: [] } };
  for (const [id, block] of Object.entries(after.blocks)) {
    const old = before.blocks[id];
    if (old === undefined) diff.blocks.added.push(label(id, block));
    else {
      const fields = changedFields(asBlock(old), asBlock(block));
      if (fields.length > 0) diff.blocks.changed.push({ ...label(id, block), fields });
    }
  }
  for (const [id, block] of Object.entries(before.blocks)) if (!(id in after.blocks)) diff.blocks.removed.push(label(id, block));
  const beforeEdges = new Map(before.edges.map((e) => [edgeKey(ends(e)), ends(e)]));
  const afterEdges = new Map(after.edges.map((e) => [edgeKey(ends(e)), ends(e)]));
  for (const [key, e] of afterEdges) if (!beforeEdges.has(key)) diff.edges.added.push(e);
  for (const [key, e] of beforeEdges) if (!afterEdges.has(key)) diff.edges.removed.push(e);
  return diff;
}
