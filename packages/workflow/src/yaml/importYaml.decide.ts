import { ownValue, setOwn } from '../model/ownKeys.js';
import type { CommandOf } from '../commands.js';
import type { DecideContext } from '../context.js';
import { createBlock, duplicateName } from '../decide/addBlock.decide.js';
import { blockNameProblem, firstBadBlockName, freeBlockName } from '../decide/blockNames.js';
import { normalizeName } from '../decide/guards.js';
import { STARTER_TYPE, extraStarters } from '../decide/oneStarter.js';
import { firstNestedTrigger } from '../decide/topLevelTriggers.js';
import { WorkflowError } from '../errors.js';
import type { WorkflowEvent } from '../events.js';
import { graphWith, setValue } from '../model/graph.js';
import type { BlockData, BlockState, Edge, WorkflowGraph, WorkflowState } from '../model/state.js';
import { graphOf } from '../model/state.js';
import { parseYaml } from './codec.js';
import type { ParsedYaml } from './codec.js';
import type { YamlBlock, YamlWorkflow } from './schema.js';

/** Why `applyAutoLayout` is refused where the decide context has no layout (e.g. in the browser). */
const AUTO_LAYOUT_UNAVAILABLE = 'Automatic layout is not available here: import without applyAutoLayout';

/** Where blocks without a position go when no layout is asked for: a simple row. */
function fallbackPosition(index: number): { x: number; y: number } {
  return { x: 100 + index * 300, y: 100 };
}

function buildBlock(ctx: DecideContext, id: string, spec: YamlBlock, index: number, lineOf: ParsedYaml['lineOf']): BlockState {
  const data: BlockData = { ...structuredClone(spec.data ?? {}) };
  if (spec.parentId !== undefined) {
    data.parentId = spec.parentId;
    data.extent = 'parent';
  }
  const position = spec.position ?? fallbackPosition(index);
  let block: BlockState;
  try {
    block = createBlock(ctx, { id, type: spec.type, name: spec.name, position, data });
  } catch (error) {
    if (!(error instanceof WorkflowError)) throw error;
    throw new WorkflowError('validation', `Invalid YAML at line ${lineOf(['blocks', id, 'type'])}: ${error.message}`);
  }
  for (const [subBlockId, value] of Object.entries(spec.inputs ?? {})) block = setValue(block, subBlockId, structuredClone(value));
  return {
    ...block,
    enabled: spec.enabled ?? true,
    horizontalHandles: spec.horizontalHandles ?? true,
    isWide: spec.isWide ?? false,
    advancedMode: spec.advancedMode ?? false,
    height: spec.height ?? 0,
  };
}

function buildEdges(parsed: ParsedYaml, ctx: DecideContext): Edge[] {
  const edges: Edge[] = [];
  for (const [source, block] of Object.entries(parsed.workflow.blocks)) {
    for (const connection of block.connections ?? []) {
      const edge: Edge = typeof connection === 'string' ? { id: '', source, target: connection } : { id: '', source, ...connection };
      const duplicate = edges.some(
        (e) => e.source === edge.source && e.target === edge.target && e.sourceHandle === edge.sourceHandle && e.targetHandle === edge.targetHandle,
      );
      if (!duplicate) edges.push({ ...edge, id: ctx.newId() });
    }
  }
  return edges;
}

/** The graph a YAML document describes, with definitions applied and laid out when asked. */
function graphFromYaml(parsed: ParsedYaml, ctx: DecideContext, applyAutoLayout: boolean): WorkflowGraph {
  const blocks: Record<string, BlockState> = {};
  Object.entries(parsed.workflow.blocks).forEach(([id, spec], index) => {
    setOwn(blocks, id, buildBlock(ctx, id, spec, index, parsed.lineOf));
  });
  const edges = buildEdges(parsed, ctx);
  if (applyAutoLayout) {
    // The layout library is large and only the editor service runs it: it is injected, never imported here.
    if (ctx.layout === undefined) throw new WorkflowError('validation', AUTO_LAYOUT_UNAVAILABLE);
    const placed = ctx.layout({ blocks, edges });
    for (const [id, place] of Object.entries(placed)) {
      const block = ownValue(blocks, id);
      if (block === undefined) continue;
      // Only the sizes the layout gave: an unset side keeps the container's default (CONTAINER_SIZE), never 0.
      const data = {
        ...block.data,
        ...(place.width === undefined ? {} : { width: place.width }),
        ...(place.height === undefined ? {} : { height: place.height }),
      };
      setOwn(blocks, id, { ...block, position: place.position, data });
    }
  }
  return graphWith(blocks, edges);
}

type YamlBlocks = YamlWorkflow['blocks'];

/** A block's position on the canvas: its own, plus its containers' (a nested block's is relative to its parent). */
function absolutePosition(blocks: YamlBlocks, id: string): { x: number; y: number } | undefined {
  let spec = ownValue(blocks, id);
  const own = spec?.position;
  if (own === undefined) return undefined;
  let { x, y } = own;
  // Bounded: a parent chain longer than the document has blocks is a cycle.
  for (let depth = 0; spec?.parentId !== undefined && depth < Object.keys(blocks).length; depth++) {
    spec = ownValue(blocks, spec.parentId);
    x += spec?.position?.x ?? 0;
    y += spec?.position?.y ?? 0;
  }
  return { x, y };
}

/**
 * The document's blocks with every trigger it nests in a loop or parallel (that the workflow did not
 * already hold so) lifted to the top level where it stood on the canvas, and every name that reads as
 * another block's in a reference given the next free number, as a new or duplicated block is
 * ('Agent 1' → 'Agent 2'): a workflow stored before these rules (two blocks named alike, a nested
 * trigger) exports YAML that must still import, into itself or a new workflow. The block that keeps
 * the name is the first in the document (or the one that had it), so `<agent1.…>` still reads it.
 */
function normalisedBlocks(state: WorkflowState, parsed: YamlBlocks, ctx: DecideContext): YamlBlocks {
  const blocks: Record<string, YamlBlock> = { ...parsed };
  for (let nested = firstNestedTrigger(state, blocks, ctx); nested !== undefined; nested = firstNestedTrigger(state, blocks, ctx)) {
    const spec = ownValue(blocks, nested.id);
    if (spec === undefined) break;
    const position = absolutePosition(blocks, nested.id);
    const { parentId: _parent, ...lifted } = spec;
    setOwn(blocks, nested.id, { ...lifted, ...(position === undefined ? {} : { position }) });
  }
  // A clash numbers the later block; a name no reference can read (stored before the rules, e.g.
  // 'GPT-4.1 Writer') loses its '.', '<' and '>', or takes its block type's name when nothing is
  // left to read — no reference could name it, so none breaks. Bounded: each step mends one block's
  // name for good (a mended name is readable; a numbered one clashes with nothing).
  for (let i = 0, bad = firstBadBlockName(state, blocks); bad !== undefined && i < 2 * Object.keys(blocks).length; i++, bad = firstBadBlockName(state, blocks)) {
    const spec = ownValue(blocks, bad.id);
    if (spec === undefined) break;
    const name = bad.clash === true ? freeBlockName({ blocks }, spec.name, duplicateName) : readableName(spec.name, spec.type);
    setOwn(blocks, bad.id, { ...spec, name });
  }
  return blocks;
}

/** `name` without what ends a reference ('.', '<', '>'), else the block type's words ('Function 1'). */
function readableName(name: string, type: string): string {
  const cleaned = name.replace(/[.<>]/g, ' ').replace(/\s+/g, ' ').trim();
  if (blockNameProblem(cleaned) === undefined) return cleaned;
  const words = type.split(/[_\s-]+/).filter(Boolean).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
  return `${words || 'Block'} 1`;
}

/** A reference token (`<name>` or `<name.path>`), as the runner reads it. */
const REFERENCE = /<([^<>\s.]+)((?:\.[^<>\s.]+)*)>/g;

/** The references to `name` that the kept blocks' inputs hold, each once: '<start2.input.x> in "Fn" (fn)'. */
function referencesTo(blocks: YamlBlocks, name: string): string[] {
  const found = new Set<string>();
  for (const [id, spec] of Object.entries(blocks)) {
    for (const match of JSON.stringify(spec.inputs ?? {}).matchAll(REFERENCE)) {
      if (match[1]?.toLowerCase() === name) found.add(`${match[0]} in "${spec.name}" (${id})`);
    }
  }
  return [...found];
}

/**
 * The document's blocks with the starters a workflow may take: when it has more than the workflow had
 * (our export of a workflow stored with two before the rule, imported into a new one), the starters
 * the workflow already has (by id, with their webhook path, secret and schedule) stay — else the first
 * in the document — and each other one is left out with the connections to and from it, said in a
 * warning with the references to it that now read nothing. A workflow that had as many keeps them all
 * (an export imported into itself).
 */
function withOneStarter(state: WorkflowState, parsed: ParsedYaml): { blocks: YamlBlocks; warnings: string[] } {
  const all = parsed.workflow.blocks;
  const position = new Map(parsed.blockOrder.map((id, index) => [id, index]));
  const starters = [...(extraStarters(state, all) ?? [])].sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
  const held = starters.filter((s) => ownValue(state.blocks, s.id)?.type === STARTER_TYPE);
  const kept = held.length > 0 ? held : starters.slice(0, 1);
  const left = starters.filter((s) => !kept.includes(s));
  if (left.length === 0) return { blocks: all, warnings: [] };
  const gone = new Set(left.map((s) => s.id));
  const targetOf = (c: NonNullable<YamlBlock['connections']>[number]) => (typeof c === 'string' ? c : c.target);
  const blocks: Record<string, YamlBlock> = {};
  const cut = new Map<string, number>(left.map((s) => [s.id, ownValue(all, s.id)?.connections?.length ?? 0]));
  for (const [id, spec] of Object.entries(all)) {
    if (gone.has(id)) continue;
    const connections = spec.connections?.filter((c) => !gone.has(targetOf(c)));
    for (const c of spec.connections ?? []) if (gone.has(targetOf(c))) cut.set(targetOf(c), (cut.get(targetOf(c)) ?? 0) + 1);
    setOwn(blocks, id, connections === undefined ? spec : { ...spec, connections });
  }
  const keptNames = new Set(Object.values(blocks).map((spec) => normalizeName(spec.name)));
  const keptLabel = `${kept.map((s) => `"${s.name}" (${s.id})`).join(', ')} ${kept.length === 1 ? 'is' : 'are'} kept`;
  const warnings = left.map((s) => {
    const n = cut.get(s.id) ?? 0;
    const name = normalizeName(s.name);
    // A kept block of the same reference name still answers them: not dangling.
    const dangling = keptNames.has(name) ? [] : referencesTo(blocks, name);
    const references = dangling.length === 0 ? '' : `; these references to it now read nothing: ${dangling.join(', ')}`;
    return `Left out starter block "${s.name}" (${s.id})${n > 0 ? ` and its ${n} connection${n === 1 ? '' : 's'}` : ''}: a workflow can have only one starter block, and ${keptLabel}${references}`;
  });
  return { blocks, warnings };
}

/** Replace the graph with a YAML document as one undoable event; invalid YAML changes nothing. */
function decideImportYaml(state: WorkflowState, command: CommandOf<'importYaml'>, ctx: DecideContext): WorkflowEvent[] {
  const parsed = parseYaml(command.yamlContent);
  const oneStarter = withOneStarter(state, parsed);
  const blocks = normalisedBlocks(state, oneStarter.blocks, ctx);
  const badName = firstBadBlockName(state, blocks);
  if (badName !== undefined) {
    throw new WorkflowError('validation', `Invalid YAML at line ${parsed.lineOf(['blocks', badName.id, 'name'])}: ${badName.reason} (blocks.${badName.id}.name)`);
  }
  const graph = graphFromYaml({ ...parsed, workflow: { ...parsed.workflow, blocks } }, ctx, command.applyAutoLayout ?? false);
  const previous = graphOf(state);
  return [
    {
      type: 'yamlImported',
      at: ctx.now,
      blocks: graph.blocks,
      edges: graph.edges,
      ...(command.description === undefined ? {} : { description: command.description }),
      ...(command.createCheckpoint === true ? { checkpoint: { blocks: previous.blocks, edges: previous.edges } } : {}),
      ...(oneStarter.warnings.length === 0 ? {} : { warnings: oneStarter.warnings }),
    },
  ];
}

export { decideImportYaml, graphFromYaml };
