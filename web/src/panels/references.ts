import { inputFormatFields, referenceName } from '@weft/catalog';
import type { BlockState, WorkflowState } from '@weft/workflow';

/** A block's name as references spell it: lowercased, spaces removed (spec 000 §4). */
export const refName = referenceName;

/** The blocks whose outputs reach `blockId` along edges, nearest first (and the containers it sits in). */
export function upstreamBlocks(state: WorkflowState, blockId: string): BlockState[] {
  const into = new Map<string, string[]>();
  for (const e of state.edges) into.set(e.target, [...(into.get(e.target) ?? []), e.source]);
  const seen = new Set<string>([blockId]);
  const order: string[] = [];
  const queue = [blockId];
  // The containers it is inside count as upstream too (their loop index and item).
  for (let p = state.blocks[blockId]?.data.parentId; p !== undefined && !seen.has(p); p = state.blocks[p]?.data.parentId) {
    seen.add(p);
    order.push(p);
    queue.push(p);
  }
  while (queue.length > 0) {
    const at = queue.shift() as string;
    for (const source of into.get(at) ?? []) {
      if (seen.has(source)) continue;
      seen.add(source);
      order.push(source);
      queue.push(source);
    }
  }
  return order.map((id) => state.blocks[id]).filter((b): b is BlockState => b !== undefined);
}

/** One choice of the `<` menu. */
export interface RefOption {
  /** What goes into the field, e.g. `<agent1.content>`. */
  insert: string;
  group: string;
}

function outputPaths(outputs: Record<string, unknown>, prefix = ''): string[] {
  const paths: string[] = [];
  for (const [key, value] of Object.entries(outputs)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0 && !('type' in value && typeof value.type === 'string')) {
      paths.push(...outputPaths(value as Record<string, unknown>, path));
    } else paths.push(path);
  }
  return paths;
}

/** Everything `<` offers in a field of `blockId`: upstream outputs (a loop's or parallel's `results`), its containers' item and index, the workflow's variables. */
export function referenceOptions(state: WorkflowState, blockId: string): RefOption[] {
  const options: RefOption[] = [];
  const enclosing = new Set<string>();
  for (let p = state.blocks[blockId]?.data.parentId; p !== undefined && !enclosing.has(p); p = state.blocks[p]?.data.parentId) enclosing.add(p);
  for (const block of upstreamBlocks(state, blockId)) {
    const name = refName(block.name);
    if (block.type === 'loop' || block.type === 'parallel') {
      // Inside it: the iteration's item and index. After it: what its iterations or branches gave (the runner's `results`).
      const kind = block.type;
      if (enclosing.has(block.id)) options.push(...['index', 'currentItem', 'items'].map((f) => ({ insert: `<${kind}.${f}>`, group: block.name })));
      else options.push({ insert: `<${name}.results>`, group: block.name });
      continue;
    }
    const paths = outputPaths(block.outputs);
    // The starter's input format names the fields a run is given: `<start.question>` reads one, as the deploy check allows.
    if (block.type === 'starter') paths.unshift('input', ...inputFormatFields(block.subBlocks.inputFormat?.value).map((f) => f.name));
    for (const path of [...new Set(paths)]) options.push({ insert: `<${name}.${path}>`, group: block.name });
  }
  for (const v of Object.values(state.variables)) options.push({ insert: `<variable.${refName(v.name)}>`, group: 'Variables' });
  return options;
}

/** What the user is typing a reference to at `caret`: `<` with the text after it, or `{{` with the text after it. */
export function openTrigger(text: string, caret: number): { kind: 'ref' | 'env'; start: number; query: string } | null {
  const before = text.slice(0, caret);
  const env = /\{\{([\w.-]*)$/.exec(before);
  if (env) return { kind: 'env', start: caret - env[0].length, query: env[1] ?? '' };
  const ref = /<([\w.]*)$/.exec(before);
  if (ref) return { kind: 'ref', start: caret - ref[0].length, query: ref[1] ?? '' };
  return null;
}

/** The text with the trigger at `start..caret` replaced by `insert`, and where the caret goes. */
export function insertAt(text: string, start: number, caret: number, insert: string): { text: string; caret: number } {
  const next = text.slice(0, start) + insert + text.slice(caret);
  return { text: next, caret: start + insert.length };
}

/** The text cut into plain parts and references (`<block.path>`, `{{ENV}}`), for highlighting. */
export function tokenize(text: string): Array<{ text: string; kind: 'plain' | 'ref' | 'env' }> {
  const parts: Array<{ text: string; kind: 'plain' | 'ref' | 'env' }> = [];
  const pattern = /<[a-zA-Z_][\w]*(?:\.[\w]+)+>|\{\{[\w.-]+\}\}/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const at = match.index;
    if (at > last) parts.push({ text: text.slice(last, at), kind: 'plain' });
    parts.push({ text: match[0], kind: match[0].startsWith('{{') ? 'env' : 'ref' });
    last = at + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), kind: 'plain' });
  return parts;
}
