import { LineCounter, isMap, isScalar, stringify } from 'yaml';
import type { z } from 'zod';
import { WorkflowError } from '../errors.js';
import { hasOwnKey, ownValue } from '../model/ownKeys.js';
import { MAX_NESTING_DEPTH, tooDeepPath } from '../model/nesting.js';
import { boundedParseDocument, TooDeepYaml } from './boundedParse.js';
import type { BlockState, WorkflowGraph } from '../model/state.js';
import { YAML_VERSION, yamlWorkflowSchema } from './schema.js';
import type { YamlBlock, YamlConnection, YamlWorkflow } from './schema.js';

type Path = ReadonlyArray<string | number>;
/**
 * A parsed document and where its parts are, so later checks can name the line; `blockOrder` is its
 * block ids as written (an object's own keys put number-like ids such as "2" first).
 */
type ParsedYaml = { workflow: YamlWorkflow; lineOf: (path: Path) => number; blockOrder: string[] };

function connectionsOf(graph: WorkflowGraph, blockId: string): YamlConnection[] {
  return graph.edges
    .filter((edge) => edge.source === blockId)
    .map((edge) =>
      edge.sourceHandle === undefined && edge.targetHandle === undefined
        ? edge.target
        : {
            target: edge.target,
            ...(edge.sourceHandle === undefined ? {} : { sourceHandle: edge.sourceHandle }),
            ...(edge.targetHandle === undefined ? {} : { targetHandle: edge.targetHandle }),
          },
    );
}

function blockToYaml(graph: WorkflowGraph, block: BlockState): YamlBlock {
  const { parentId, extent: _extent, ...data } = block.data;
  const inputs = Object.fromEntries(Object.values(block.subBlocks).map((sub) => [sub.id, sub.value]));
  const connections = connectionsOf(graph, block.id);
  return {
    type: block.type,
    name: block.name,
    position: block.position,
    ...(parentId === undefined ? {} : { parentId }),
    ...(block.enabled ? {} : { enabled: false }),
    ...(block.horizontalHandles ? {} : { horizontalHandles: false }),
    ...(block.isWide ? { isWide: true } : {}),
    ...(block.advancedMode ? { advancedMode: true } : {}),
    ...(block.height === 0 ? {} : { height: block.height }),
    ...(Object.keys(inputs).length === 0 ? {} : { inputs }),
    ...(Object.keys(data).length === 0 ? {} : { data }),
    ...(connections.length === 0 ? {} : { connections }),
  };
}

/** Export blocks and edges as YAML (the format `fromYaml` reads and the structure guide describes). */
function toYaml(graph: WorkflowGraph): string {
  const blocks = Object.fromEntries(Object.values(graph.blocks).map((block) => [block.id, blockToYaml(graph, block)]));
  const workflow: YamlWorkflow = { version: YAML_VERSION, blocks };
  return stringify(workflow);
}

function describePath(path: Path): string {
  return path.map((part) => String(part)).join('.');
}

function issueAt(issue: z.core.$ZodIssue, lineOf: (path: Path) => number): WorkflowError {
  const path = issue.path.filter((part) => typeof part !== 'symbol');
  const where = path.length === 0 ? '' : ` (${describePath(path)})`;
  return new WorkflowError('validation', `Invalid YAML at line ${lineOf(path)}: ${issue.message}${where}`);
}

/** A path as the depth message shows it: its first six steps, then `…`. */
function shownPath(path: Path): string {
  return path.length > 6 ? `${describePath(path.slice(0, 6))}.…` : describePath(path);
}

/** The refusal of a value nested past MAX_NESTING_DEPTH (the gateway's bound on a request body), naming line and field. */
function tooDeep(line: number, path: Path): WorkflowError {
  return new WorkflowError('validation', `Invalid YAML at line ${line}: nested too deeply at ${shownPath(path)} (at most ${MAX_NESTING_DEPTH} levels of objects and arrays)`);
}

/**
 * Parse and check the structure; every error names its line. A value nested past MAX_NESTING_DEPTH
 * levels (the document is level 1, as a request body is) is refused naming line and field: flow
 * collections as they are read (`boundedParseDocument`), the whole value once built.
 */
function parseYaml(text: string): ParsedYaml {
  const lineCounter = new LineCounter();
  let document;
  try {
    document = boundedParseDocument(text, { lineCounter, uniqueKeys: true });
  } catch (err) {
    if (err instanceof TooDeepYaml) throw tooDeep(lineCounter.linePos(err.offset).line || 1, err.path);
    throw err;
  }
  const syntax = document.errors[0];
  if (syntax !== undefined) {
    const line = lineCounter.linePos(syntax.pos[0]).line;
    // Nesting by indentation deep enough to overflow the composer's stack: told as what it is.
    if (syntax.message.includes('Maximum call stack size exceeded')) throw new WorkflowError('validation', `Invalid YAML at line ${line}: nested too deeply (at most ${MAX_NESTING_DEPTH} levels of objects and arrays)`);
    throw new WorkflowError('validation', `Invalid YAML at line ${line}: ${syntax.message.split('\n')[0] ?? ''}`);
  }
  const lineOf = (path: Path): number => {
    for (let length = path.length; length >= 0; length--) {
      const node = length === 0 ? document.contents : document.getIn(path.slice(0, length), true);
      const range: unknown = node !== null && typeof node === 'object' && 'range' in node ? node.range : undefined;
      if (Array.isArray(range) && typeof range[0] === 'number') return lineCounter.linePos(range[0]).line || 1;
    }
    return 1;
  };
  const value: unknown = document.toJS();
  const deep = tooDeepPath(value);
  if (deep) throw tooDeep(lineOf(deep), deep);
  const result = yamlWorkflowSchema.safeParse(value);
  if (!result.success) {
    const [issue] = result.error.issues;
    throw issue === undefined ? new WorkflowError('validation', 'Invalid YAML at line 1') : issueAt(issue, lineOf);
  }
  const workflow = result.data;
  for (const [id, block] of Object.entries(workflow.blocks)) {
    if (block.parentId !== undefined && !hasOwnKey(workflow.blocks, block.parentId)) {
      throw new WorkflowError('validation', `Invalid YAML at line ${lineOf(['blocks', id, 'parentId'])}: unknown parent block ${block.parentId}`);
    }
    for (let parent = block.parentId, depth = 0; parent !== undefined; parent = ownValue(workflow.blocks, parent)?.parentId, depth++) {
      if (parent === id || depth > Object.keys(workflow.blocks).length) {
        throw new WorkflowError('validation', `Invalid YAML at line ${lineOf(['blocks', id, 'parentId'])}: block ${id} is nested inside itself`);
      }
    }
    (block.connections ?? []).forEach((connection, index) => {
      const target = typeof connection === 'string' ? connection : connection.target;
      if (!hasOwnKey(workflow.blocks, target)) {
        throw new WorkflowError('validation', `Invalid YAML at line ${lineOf(['blocks', id, 'connections', index])}: unknown target block ${target}`);
      }
    });
  }
  return { workflow, lineOf, blockOrder: blockOrderOf(document.get('blocks'), workflow) };
}

/** The document's block ids in the order written; any the map does not show (none expected) after them. */
function blockOrderOf(node: unknown, workflow: YamlWorkflow): string[] {
  const written = isMap(node) ? node.items.map((pair) => String(isScalar(pair.key) ? pair.key.value : pair.key)) : [];
  const order = written.filter((id) => hasOwnKey(workflow.blocks, id));
  return [...new Set([...order, ...Object.keys(workflow.blocks)])];
}

/** Read the YAML format; throws a 'validation' WorkflowError naming the line. */
function fromYaml(text: string): YamlWorkflow {
  return parseYaml(text).workflow;
}

export { toYaml, fromYaml, parseYaml };
export type { ParsedYaml };
