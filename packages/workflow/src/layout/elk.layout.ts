// A reference, not an import: the declaration must reach packages that compile this source too.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./elkWorker.d.ts" />
import elkWorker from 'elkjs/lib/elk-worker.min.js';
import { z } from 'zod';
import type { LayoutFunction, LayoutInput } from '../context.js';
import { ownValue, setOwn } from '../model/ownKeys.js';
import type { BlockState, Position } from '../model/state.js';
import { CONTAINER_SIZE } from '../model/subflows.js';

/** Block sizes the canvas draws; ELK needs them to keep blocks apart. */
const BLOCK_WIDTH = 250;
const WIDE_BLOCK_WIDTH = 480;
const BLOCK_HEIGHT = 120;
/** Where the laid-out workflow starts, like a new workflow's starter (§9). */
const ORIGIN: Position = { x: 100, y: 100 };

type ElkNode = { id: string; width?: number; height?: number; children?: ElkNode[]; layoutOptions?: Record<string, string> };

const elkResultNode: z.ZodType<{ id: string; x?: number; y?: number; width?: number; height?: number; children?: ElkResultNode[] }> =
  z.lazy(() =>
    z.object({
      id: z.string(),
      x: z.number().optional(),
      y: z.number().optional(),
      width: z.number().optional(),
      height: z.number().optional(),
      children: z.array(elkResultNode).optional(),
    }),
  );
type ElkResultNode = z.infer<typeof elkResultNode>;
const elkAnswer = z.object({ data: elkResultNode.optional(), error: z.unknown().optional() });

const ROOT_OPTIONS = {
  'elk.algorithm': 'layered',
  'elk.direction': 'RIGHT',
  'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
  'elk.spacing.nodeNode': '60',
  'elk.layered.spacing.nodeNodeBetweenLayers': '100',
};
const CONTAINER_OPTIONS = { 'elk.padding': '[top=60,left=40,bottom=40,right=40]' };

function toElkNode(block: BlockState, blocks: BlockState[]): ElkNode {
  const children = blocks.filter((child) => child.data.parentId === block.id).map((child) => toElkNode(child, blocks));
  if (children.length > 0) return { id: block.id, children, layoutOptions: CONTAINER_OPTIONS };
  const isContainer = block.type === 'loop' || block.type === 'parallel';
  return {
    id: block.id,
    width: isContainer ? (block.data.width ?? CONTAINER_SIZE.width) : block.isWide ? WIDE_BLOCK_WIDTH : BLOCK_WIDTH,
    height: isContainer ? (block.data.height ?? CONTAINER_SIZE.height) : Math.max(block.height, BLOCK_HEIGHT),
  };
}

/** Run ELK synchronously through its in-process worker; no Web Worker, timers or Node built-ins. */
function runElk(graph: unknown): ElkResultNode | undefined {
  const worker = new elkWorker.Worker();
  let answer: unknown;
  worker.onmessage = (message) => {
    answer = message.data;
  };
  worker.dispatcher.saveDispatch({ data: { id: 0, cmd: 'register', algorithms: ['layered'] } });
  worker.dispatcher.saveDispatch({ data: { id: 1, cmd: 'layout', graph, layoutOptions: {}, options: {} } });
  const parsed = elkAnswer.safeParse(answer);
  return parsed.success && parsed.data.error === undefined ? parsed.data.data : undefined;
}

/** Layered left-to-right layout with ELK; children are placed relative to their container. */
const elkLayout: LayoutFunction = (input: LayoutInput) => {
  const blocks = Object.values(input.blocks);
  const known = new Set(blocks.map((block) => block.id));
  const root = {
    id: '__root__',
    layoutOptions: ROOT_OPTIONS,
    children: blocks.filter((block) => block.data.parentId === undefined || !known.has(block.data.parentId)).map((block) => toElkNode(block, blocks)),
    edges: input.edges
      .filter((edge) => known.has(edge.source) && known.has(edge.target) && edge.source !== edge.target)
      .map((edge) => ({ id: edge.id, sources: [edge.source], targets: [edge.target] })),
  };
  const result = runElk(root);
  const placed: ReturnType<LayoutFunction> = {};
  const visit = (node: ElkResultNode, offset: Position): void => {
    const block = ownValue(input.blocks, node.id);
    if (block !== undefined) {
      const container = node.children !== undefined && node.children.length > 0;
      setOwn(placed, node.id, {
        position: { x: Math.round((node.x ?? 0) + offset.x), y: Math.round((node.y ?? 0) + offset.y) },
        ...(container ? { width: Math.round(node.width ?? 0), height: Math.round(node.height ?? 0) } : {}),
      });
    }
    for (const child of node.children ?? []) visit(child, block === undefined ? ORIGIN : { x: 0, y: 0 });
  };
  if (result !== undefined) visit(result, ORIGIN);
  return placed;
};

export { elkLayout };
