import type { CommandOf } from '../commands.js';
import type { DecideContext } from '../context.js';
import { createBlock } from '../decide/addBlock.decide.js';
import { firstBadBlockName } from '../decide/blockNames.js';
import { describeStarters, extraStarters } from '../decide/oneStarter.js';
import { firstNestedTrigger } from '../decide/topLevelTriggers.js';
import { WorkflowError } from '../errors.js';
import type { WorkflowEvent } from '../events.js';
import { graphWith, setValue } from '../model/graph.js';
import type { BlockData, BlockState, Edge, WorkflowGraph, WorkflowState } from '../model/state.js';
import { graphOf } from '../model/state.js';
import { parseYaml } from './codec.js';
import type { ParsedYaml } from './codec.js';
import type { YamlBlock } from './schema.js';

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
    blocks[id] = buildBlock(ctx, id, spec, index, parsed.lineOf);
  });
  const edges = buildEdges(parsed, ctx);
  if (applyAutoLayout) {
    // The layout library is large and only the editor service runs it: it is injected, never imported here.
    if (ctx.layout === undefined) throw new WorkflowError('validation', AUTO_LAYOUT_UNAVAILABLE);
    const placed = ctx.layout({ blocks, edges });
    for (const [id, place] of Object.entries(placed)) {
      const block = blocks[id];
      if (block === undefined) continue;
      // Only the sizes the layout gave: an unset side keeps the container's default (CONTAINER_SIZE), never 0.
      const data = {
        ...block.data,
        ...(place.width === undefined ? {} : { width: place.width }),
        ...(place.height === undefined ? {} : { height: place.height }),
      };
      blocks[id] = { ...block, position: place.position, data };
    }
  }
  return graphWith(blocks, edges);
}

/** Replace the graph with a YAML document as one undoable event; invalid YAML changes nothing. */
function decideImportYaml(state: WorkflowState, command: CommandOf<'importYaml'>, ctx: DecideContext): WorkflowEvent[] {
  const parsed = parseYaml(command.yamlContent);
  const starters = extraStarters(state, parsed.workflow.blocks);
  if (starters !== undefined) {
    // Named at the first starter past the one a workflow may have.
    const second = starters[1]?.id ?? '';
    throw new WorkflowError('validation', `Invalid YAML at line ${parsed.lineOf(['blocks', second, 'type'])}: ${describeStarters(starters)} (blocks.${second}.type)`);
  }
  // Refused like any other bad block of the document (line and field named), never lifted out silently.
  const nested = firstNestedTrigger(state, parsed.workflow.blocks, ctx);
  if (nested !== undefined) {
    throw new WorkflowError('validation', `Invalid YAML at line ${parsed.lineOf(['blocks', nested.id, 'parentId'])}: ${nested.reason} (blocks.${nested.id}.parentId)`);
  }
  const badName = firstBadBlockName(state, parsed.workflow.blocks);
  if (badName !== undefined) {
    throw new WorkflowError('validation', `Invalid YAML at line ${parsed.lineOf(['blocks', badName.id, 'name'])}: ${badName.reason} (blocks.${badName.id}.name)`);
  }
  const graph = graphFromYaml(parsed, ctx, command.applyAutoLayout ?? false);
  const previous = graphOf(state);
  return [
    {
      type: 'yamlImported',
      at: ctx.now,
      blocks: graph.blocks,
      edges: graph.edges,
      ...(command.description === undefined ? {} : { description: command.description }),
      ...(command.createCheckpoint === true ? { checkpoint: { blocks: previous.blocks, edges: previous.edges } } : {}),
    },
  ];
}

export { decideImportYaml, graphFromYaml };
