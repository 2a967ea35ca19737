import { z } from 'zod';
import { graphWith } from '../model/graph.js';
import type { BlockState, Position, WorkflowGraph } from '../model/state.js';
import { toYaml } from './codec.js';
import { YAML_VERSION, yamlWorkflowSchema } from './schema.js';

/** What POST /api/tools/get-yaml-structure answers as `data`. */
type YamlStructureGuide = { version: string; schema: unknown; example: string; rules: string[] };

function exampleBlock(id: string, type: string, name: string, position: Position, values: Record<string, unknown>, parentId?: string): BlockState {
  const subBlocks = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { id: key, type: 'unknown', value }]));
  return {
    id,
    type,
    name,
    position,
    subBlocks,
    outputs: {},
    enabled: true,
    horizontalHandles: true,
    isWide: false,
    height: 0,
    advancedMode: false,
    data: parentId === undefined ? (type === 'loop' ? { count: 3, loopType: 'for' } : {}) : { parentId, extent: 'parent' },
  };
}

function exampleGraph(): WorkflowGraph {
  const blocks = [
    exampleBlock('start', 'starter', 'Start', { x: 100, y: 100 }, { startWorkflow: 'manual' }),
    exampleBlock('writer', 'agent', 'Writer', { x: 450, y: 100 }, { systemPrompt: 'You write haiku.', userPrompt: '<start.input>' }),
    exampleBlock('repeat', 'loop', 'Loop 1', { x: 800, y: 100 }, {}),
    exampleBlock('shout', 'function', 'Shout', { x: 50, y: 60 }, { code: 'return <writer.content>.toUpperCase()' }, 'repeat'),
  ];
  const edges = [
    { id: 'e1', source: 'start', target: 'writer' },
    { id: 'e2', source: 'writer', target: 'repeat', sourceHandle: 'source', targetHandle: 'target' },
  ];
  return graphWith(Object.fromEntries(blocks.map((block) => [block.id, block])), edges);
}

/** A guide to the YAML format built from the codec itself: its JSON schema and an example it wrote. */
function yamlStructureGuide(): YamlStructureGuide {
  return {
    version: YAML_VERSION,
    schema: z.toJSONSchema(yamlWorkflowSchema, { unrepresentable: 'any' }),
    example: toYaml(exampleGraph()),
    rules: [
      'Each key under blocks is the block id; connections name target block ids.',
      'type must be a catalogue block type, or loop / parallel for containers.',
      'inputs maps sub-block ids to values; missing inputs take the block definition defaults.',
      'Blocks inside a loop or parallel name it as parentId; their position is relative to it.',
      'Loop and parallel counts are clamped to 1..50 (default 5); parallelType is collection or count.',
      'References to other blocks are written <blockname.output>, with the name lowercased and spaces removed.',
      'Importing replaces the whole workflow; it can be undone.',
    ],
  };
}

export { yamlStructureGuide };
export type { YamlStructureGuide };
