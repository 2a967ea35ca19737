import { inputFormatFields, readableUpstream, REFERENCE_TOKEN_SOURCE, referenceName } from '@weft/catalog';
import type { BlockState, WorkflowState } from '@weft/workflow';

/** A block's name as references spell it: lowercased, spaces removed (spec 000 §4). */
export const refName = referenceName;

/**
 * The blocks whose outputs `blockId` reads, nearest first (and the containers it sits in): upstream
 * along edges and run before it in every run that reaches it (`readableUpstream` of `@weft/catalog`,
 * the deploy check's reading) — a block only a webhook or schedule block the starter does not lead to
 * feeds is offered that block's outputs, not the starter's.
 */
export function upstreamBlocks(state: WorkflowState, blockId: string): BlockState[] {
  return readableUpstream(state, blockId).map((id) => state.blocks[id]).filter((b): b is BlockState => b !== undefined);
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

/**
 * Names a reference's head always reads as something other than a block (the runner's and the deploy
 * check's reading): `<start.…>` the starter, `<variable.…>` a workflow variable, `<loop.…>` /
 * `<parallel.…>` the iteration fields of the container a block sits in.
 */
export const RESERVED_REFERENCE_NAMES: ReadonlySet<string> = new Set(['start', 'variable', 'loop', 'parallel']);

/**
 * One character of a reference's name or of a path segment, as the runner reads references
 * (`REFERENCE_TOKEN_SOURCE` of `@weft/catalog`): anything but `<`, `>`, `.` and white space — so a
 * block named `Agent-2` or `Résumé` is `<agent-2.…>`, `<résumé.…>`. `references.unit.test.ts`
 * checks the patterns below against the runner's.
 */
const PART = String.raw`[^<>\s.]`;

/**
 * A reference being typed, from its `<` to the caret: text that can still become a whole
 * `<name.path>` (a name, `.`-separated segments, possibly a `.` just typed; nothing empty between dots).
 */
export const REFERENCE_TYPED_SOURCE = String.raw`<(?:${PART}+(?:\.${PART}+)*\.?)?`;

/** An environment variable being typed, from its `{{` to the caret (the runner's `{{KEY}}` characters). */
export const ENV_TYPED_SOURCE = String.raw`\{\{[A-Za-z0-9_\-.]*`;

const REF_TYPED_END = new RegExp(`${REFERENCE_TYPED_SOURCE}$`);
const ENV_TYPED_END = new RegExp(`${ENV_TYPED_SOURCE}$`);

/**
 * Whether a starter's input field can be offered as `<start.<name>>`: one path segment as the runner
 * reads it (a space, `.`, `<` or `>` would make it no reference or another path, and `[…]` an index).
 */
export function isReferenceableField(name: string): boolean {
  return /^[^<>\s.[\]]+$/.test(name);
}

/**
 * Everything `<` offers in a field of `blockId`: the outputs of the blocks `upstreamBlocks` gives
 * (upstream and run in every run that reaches it; a loop's or parallel's `results`,
 * unless its name is a reserved one), the iteration fields of the innermost container of each kind it
 * sits in, the starter's input (and, in chat mode, the conversation id) and input fields (always as
 * `<start.…>`, whatever the starter is called: the runner reads input fields only there), the
 * workflow's variables.
 */
export function referenceOptions(state: WorkflowState, blockId: string): RefOption[] {
  const options: RefOption[] = [];
  const enclosing = new Set<string>();
  for (let p = state.blocks[blockId]?.data.parentId; p !== undefined && !enclosing.has(p); p = state.blocks[p]?.data.parentId) enclosing.add(p);
  const iterationOffered = new Set<string>();
  for (const block of upstreamBlocks(state, blockId)) {
    const name = refName(block.name);
    if (block.type === 'loop' || block.type === 'parallel') {
      // Inside it: the iteration's item and index (of the innermost loop / parallel: `<loop.…>` reads that one).
      // After it: what its iterations or branches gave (the runner's `results`), unless its name reads as something else.
      const kind = block.type;
      if (enclosing.has(block.id)) {
        if (iterationOffered.has(kind)) continue;
        iterationOffered.add(kind);
        options.push(...['index', 'currentItem', 'items'].map((f) => ({ insert: `<${kind}.${f}>`, group: block.name })));
      } else if (!RESERVED_REFERENCE_NAMES.has(name)) options.push({ insert: `<${name}.results>`, group: block.name });
      continue;
    }
    if (block.type === 'starter') {
      // `<start.…>` always means the starter, and only `<start.question>` reads the input's field (a renamed starter's `<begin.question>` reads nothing).
      const fields = inputFormatFields(block.subBlocks.inputFormat?.value).map((f) => f.name).filter(isReferenceableField);
      // In chat mode a chat message gives {input: message, conversationId?} (docs/runner-engine.md, Starter).
      const chat = block.subBlocks.startWorkflow?.value === 'chat' ? ['conversationId'] : [];
      for (const path of [...new Set(['input', ...chat, ...fields, ...outputPaths(block.outputs)])]) options.push({ insert: `<start.${path}>`, group: block.name });
      continue;
    }
    for (const path of [...new Set(outputPaths(block.outputs))]) options.push({ insert: `<${name}.${path}>`, group: block.name });
  }
  for (const v of Object.values(state.variables)) options.push({ insert: `<variable.${refName(v.name)}>`, group: 'Variables' });
  return options;
}

/** What the user is typing a reference to at `caret`: `<` with the text after it, or `{{` with the text after it. */
export function openTrigger(text: string, caret: number): { kind: 'ref' | 'env'; start: number; query: string } | null {
  const before = text.slice(0, caret);
  const env = ENV_TYPED_END.exec(before);
  if (env) return { kind: 'env', start: caret - env[0].length, query: env[0].slice(2) };
  const ref = REF_TYPED_END.exec(before);
  if (ref) return { kind: 'ref', start: caret - ref[0].length, query: ref[0].slice(1) };
  return null;
}

/** The choices whose text holds what was typed after `<` or `{{` (any case), in their order: the menus of text and code fields alike. */
export function matchingChoices<T extends { insert: string }>(choices: readonly T[], query: string): T[] {
  const q = query.toLowerCase();
  return choices.filter((c) => c.insert.toLowerCase().includes(q));
}

/** The text with the trigger at `start..caret` replaced by `insert`, and where the caret goes. */
export function insertAt(text: string, start: number, caret: number, insert: string): { text: string; caret: number } {
  const next = text.slice(0, start) + insert + text.slice(caret);
  return { text: next, caret: start + insert.length };
}

/**
 * The text cut into plain parts and references, for highlighting: the tokens the runner reads
 * (`REFERENCE_TOKEN_SOURCE`, found as it finds them), `{{KEY}}` and `<name.path>` — one with a path;
 * `<b>` alone reads a block's whole output only when a block is named so, and is mostly markup.
 */
export function tokenize(text: string): Array<{ text: string; kind: 'plain' | 'ref' | 'env' }> {
  const parts: Array<{ text: string; kind: 'plain' | 'ref' | 'env' }> = [];
  let last = 0;
  for (const match of text.matchAll(new RegExp(REFERENCE_TOKEN_SOURCE, 'g'))) {
    const kind = match[3] !== undefined ? 'env' : match[2] ? 'ref' : undefined;
    if (!kind) continue;
    const at = match.index;
    if (at > last) parts.push({ text: text.slice(last, at), kind: 'plain' });
    parts.push({ text: match[0], kind });
    last = at + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), kind: 'plain' });
  return parts;
}
