import type { BlockState, Edge } from '@weft/workflow';

/** One row of a condition block: if, else if…, else; its edge leaves from handle `condition-<id>`. */
export interface ConditionRow {
  id: string;
  title: string;
  value: string;
}

/** Every block type that only starts a workflow: nothing connects into it. */
export const START_TYPES: ReadonlySet<string> = new Set(['starter', 'schedule', 'webhook']);
/** Final blocks: nothing leaves them (spec 001 §2, Response). */
export const FINAL_TYPES: ReadonlySet<string> = new Set(['response']);
export const CONTAINER_TYPES: ReadonlySet<string> = new Set(['loop', 'parallel']);

/** The rows a condition block starts with: if and else. */
export function defaultConditions(blockId: string): ConditionRow[] {
  return [
    { id: `${blockId}-if`, title: 'if', value: '' },
    { id: `${blockId}-else`, title: 'else', value: '' },
  ];
}

/** A condition block's rows from its value (a JSON array, or its text); the defaults when it has none. */
export function conditionRows(blockId: string, value: unknown): ConditionRow[] {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = null;
    }
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return defaultConditions(blockId);
  return parsed
    .filter((row): row is Record<string, unknown> => typeof row === 'object' && row !== null && typeof (row as { id?: unknown }).id === 'string')
    .map((row) => ({ id: String(row.id), title: typeof row.title === 'string' ? row.title : 'if', value: typeof row.value === 'string' ? row.value : '' }));
}

/** Retitles rows by their place: the first 'if', the last 'else', the others 'else if'. */
export function retitle(rows: ConditionRow[]): ConditionRow[] {
  return rows.map((row, i) => ({ ...row, title: i === 0 ? 'if' : i === rows.length - 1 ? 'else' : 'else if' }));
}

/** A block's outgoing handles as the canvas draws them, in order. */
export interface SourceHandle {
  id: string;
  label: string;
  kind: 'source' | 'error' | 'condition' | 'router' | 'start' | 'end';
}

/**
 * A block's outgoing handles. A router has one per target it routes to (`router-<target id>`), labelled with the
 * target's name from `nameOf`, or its id when the target is gone.
 */
export function sourceHandles(block: BlockState, edges: readonly Edge[], nameOf: (id: string) => string | undefined = () => undefined): SourceHandle[] {
  if (FINAL_TYPES.has(block.type)) return [];
  if (block.type === 'loop' || block.type === 'parallel') {
    return [
      { id: `${block.type}-start-source`, label: 'Start', kind: 'start' },
      { id: `${block.type}-end-source`, label: 'End', kind: 'end' },
    ];
  }
  if (START_TYPES.has(block.type)) return [{ id: 'source', label: 'Out', kind: 'source' }];
  if (block.type === 'condition') {
    const rows = conditionRows(block.id, block.subBlocks.conditions?.value);
    return [...rows.map((row) => ({ id: `condition-${row.id}`, label: row.title, kind: 'condition' as const })), { id: 'error', label: 'Error', kind: 'error' }];
  }
  if (block.type === 'router') {
    const targets = edges.filter((e) => e.source === block.id && e.sourceHandle?.startsWith('router-')).map((e) => e.sourceHandle ?? '');
    return [
      ...[...new Set(targets)].map((id) => {
        const target = id.slice('router-'.length);
        return { id, label: nameOf(target) ?? target, kind: 'router' as const };
      }),
      { id: 'source', label: 'Route to…', kind: 'source' },
      { id: 'error', label: 'Error', kind: 'error' },
    ];
  }
  return [
    { id: 'source', label: 'Out', kind: 'source' },
    { id: 'error', label: 'Error', kind: 'error' },
  ];
}

/** Whether a block takes incoming connections. */
export const hasTarget = (type: string) => !START_TYPES.has(type);
