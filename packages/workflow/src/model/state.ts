/** A point on the canvas; for a child block it is relative to its container. */
type Position = { x: number; y: number };

/** One form field of a block with its current value. */
type SubBlockState = { id: string; type: string; value: unknown };

type LoopType = 'for' | 'forEach';
type ParallelType = 'collection' | 'count';

/** Free-form block data; containers keep their settings here (§3 Block). */
type BlockData = {
  parentId?: string;
  extent?: 'parent';
  width?: number;
  height?: number;
  count?: number;
  collection?: unknown;
  loopType?: LoopType;
  parallelType?: ParallelType;
  [key: string]: unknown;
};

/** A block on the canvas (§3 Block). */
type BlockState = {
  id: string;
  type: string;
  name: string;
  position: Position;
  subBlocks: Record<string, SubBlockState>;
  outputs: Record<string, unknown>;
  enabled: boolean;
  horizontalHandles: boolean;
  isWide: boolean;
  height: number;
  advancedMode: boolean;
  data: BlockData;
};

/** A connection between two blocks (§3 Edge). */
type Edge = { id: string; source: string; target: string; sourceHandle?: string; targetHandle?: string };

/** Derived from a loop container block (§3 Loop). */
type Loop = { id: string; nodes: string[]; iterations: number; loopType: LoopType; forEachItems: unknown };

/** Derived from a parallel container block (§3 Parallel). */
type Parallel = { id: string; nodes: string[]; distribution: unknown; count: number; parallelType: ParallelType };

type VariableType = 'plain' | 'number' | 'boolean' | 'object' | 'array';

/** A workflow variable (§3 Workflow variable); `validationError` is absent when the value is valid. */
type Variable = {
  id: string;
  workflowId: string;
  name: string;
  type: VariableType;
  value: unknown;
  validationError?: string;
};

/** The part of the state that history restores. */
type WorkflowGraph = {
  blocks: Record<string, BlockState>;
  edges: Edge[];
  loops: Record<string, Loop>;
  parallels: Record<string, Parallel>;
};

/** blockId → subBlockId → value, as the spec's history entry carries it. */
type SubBlockValues = Record<string, Record<string, unknown>>;

/**
 * The variables a history step replaced, on the step that did (only Revert to deployed does): an
 * undo of that step puts `before` back and a redo of it `after`. Variables are not otherwise in
 * history: an undo of a graph edit leaves them as they are.
 */
type VariableSwap = { before: Record<string, Variable>; after: Record<string, Variable> };

/** One point of the undo history (§3 History entry). */
type HistoryEntry = { state: WorkflowGraph; timestamp: number; action: string; subblockValues: SubBlockValues; variableSwap?: VariableSwap };

type History = { past: HistoryEntry[]; present: HistoryEntry; future: HistoryEntry[] };

/** The whole state of one workflow (§3 Workflow state plus its variables). */
type WorkflowState = WorkflowGraph & {
  variables: Record<string, Variable>;
  history: History;
  lastSaved: number | null;
  isDeployed: boolean;
  deployedAt: number | null;
  needsRedeployment: boolean;
  hasActiveWebhook: boolean;
};

/** A workflow with no blocks. */
function emptyGraph(): WorkflowGraph {
  return { blocks: {}, edges: [], loops: {}, parallels: {} };
}

/** The state before any event: empty graph, not deployed, one 'Initial state' history entry. */
function initialState(): WorkflowState {
  const graph = emptyGraph();
  return {
    ...graph,
    variables: {},
    history: { past: [], present: { state: graph, timestamp: 0, action: 'Initial state', subblockValues: {} }, future: [] },
    lastSaved: null,
    isDeployed: false,
    deployedAt: null,
    needsRedeployment: false,
    hasActiveWebhook: false,
  };
}

/** The history-restorable part of a state. */
function graphOf(state: WorkflowGraph): WorkflowGraph {
  return { blocks: state.blocks, edges: state.edges, loops: state.loops, parallels: state.parallels };
}

export { emptyGraph, initialState, graphOf };
export type {
  Position,
  SubBlockState,
  LoopType,
  ParallelType,
  BlockData,
  BlockState,
  Edge,
  Loop,
  Parallel,
  VariableType,
  Variable,
  VariableSwap,
  WorkflowGraph,
  SubBlockValues,
  HistoryEntry,
  History,
  WorkflowState,
};
