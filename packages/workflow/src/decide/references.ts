import type { ValueChange } from '../events.js';
import type { WorkflowGraph } from '../model/state.js';
import { normalizeName } from './guards.js';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Rewrite every string inside a JSON-like value; unchanged values keep their identity. */
function rewriteStrings(value: unknown, rewrite: (text: string) => string): unknown {
  if (typeof value === 'string') return rewrite(value);
  if (Array.isArray(value)) {
    const items: unknown[] = value.map((item: unknown) => rewriteStrings(item, rewrite));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    const rewritten = entries.map(([key, item]): [string, unknown] => [key, rewriteStrings(item, rewrite)]);
    return rewritten.some(([, item], i) => item !== entries[i]?.[1]) ? Object.fromEntries(rewritten) : value;
  }
  return value;
}

/** The sub-block values that change when `pattern` is replaced; `skip` names a block left alone. */
function valueRewrites(graph: WorkflowGraph, pattern: RegExp, replacement: string, skip?: string): ValueChange[] {
  const changes: ValueChange[] = [];
  const rewrite = (text: string): string => text.replace(pattern, replacement);
  for (const block of Object.values(graph.blocks)) {
    if (block.id === skip) continue;
    for (const sub of Object.values(block.subBlocks)) {
      const value = rewriteStrings(sub.value, rewrite);
      if (value !== sub.value) changes.push({ blockId: block.id, subBlockId: sub.id, value });
    }
  }
  return changes;
}

/** References `<oldname.` in other blocks become `<newname.` (§4 Rename block). */
function blockReferenceRewrites(graph: WorkflowGraph, blockId: string, oldName: string, newName: string): ValueChange[] {
  const from = normalizeName(oldName);
  const to = normalizeName(newName);
  if (from === to || from === '') return [];
  return valueRewrites(graph, new RegExp(`<${escapeRegExp(from)}\\.`, 'gi'), `<${to}.`, blockId);
}

/** References `<variable.oldname>` in every block become `<variable.newname>` (§5 Variable names). */
function variableReferenceRewrites(graph: WorkflowGraph, oldName: string, newName: string): ValueChange[] {
  const from = normalizeName(oldName);
  const to = normalizeName(newName);
  if (from === to || from === '') return [];
  return valueRewrites(graph, new RegExp(`<variable\\.${escapeRegExp(from)}>`, 'gi'), `<variable.${to}>`);
}

export { rewriteStrings, blockReferenceRewrites, variableReferenceRewrites };
