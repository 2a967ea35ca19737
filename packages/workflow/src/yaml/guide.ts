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
      'A workflow has one block of type starter (keep the existing one, with its id); of a document with a second one, only the workflow\'s existing starter (by id) is imported, else the first in the document (any other is left out with its connections, and a warning says so, naming the references to it that now read nothing).',
      'inputs maps sub-block ids to values; missing inputs take the block definition defaults.',
      'Blocks inside a loop or parallel name it as parentId; their position is relative to it.',
      'Loop and parallel counts are clamped to 1..50 (default 5); parallelType is collection or count.',
      'References to other blocks are written <blockname.output>, with the name lowercased and spaces removed.',
      'So no two blocks may have names that read alike that way ("Agent 1" and "agent1" clash), and a name needs a letter or digit, has no ".", "<" or ">", and is not "variable"; a document breaking this is refused.',
      "A condition's conditions input is a JSON array (or its text) of {id, title: 'if' | 'else if' | 'else', value}; each branch's connection leaves from sourceHandle condition-<id>.",
      "A router's connections leave from sourceHandle router-<targetBlockId>; a block's failure path leaves from sourceHandle error (the default handle is source).",
      'Inside a loop or parallel, the first body block is connected from the container with sourceHandle loop-start-source / parallel-start-source; what follows the container is connected from loop-end-source / parallel-end-source.',
      "The starter's output is {input} (<start.input.x> reads a field of the run's input); a function's output is {result, stdout}.",
      'A starter in chat mode (startWorkflow: chat) sent a chat message gives {input: message, conversationId}: <start.input> is the message and <start.conversationId> the conversation\'s id, present only when one was sent.',
      'A table value (headers, query params) is a list of {id, cells: {Key, Value}} rows.',
      "The run's output is the Response block's data when one ran, else the output of the last block that finished.",
      'Importing replaces the whole workflow; it can be undone.',
    ],
  };
}

export { yamlStructureGuide };
export type { YamlStructureGuide };
