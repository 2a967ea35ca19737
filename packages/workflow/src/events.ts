import type { BlockState, Edge, LoopType, ParallelType, Position, Variable } from './model/state.js';

/** A sub-block value rewritten as a side effect (block or variable rename). */
type ValueChange = { blockId: string; subBlockId: string; value: unknown };

/** The graph before an import, kept when the import asked for a checkpoint. */
type Checkpoint = { blocks: Record<string, BlockState>; edges: Edge[] };

/** Events that change the graph and push one history entry each. */
type GraphEvent =
  | { type: 'blockAdded'; at: number; block: BlockState }
  | { type: 'blockMoved'; at: number; id: string; position: Position }
  | { type: 'blockResized'; at: number; id: string; width: number; height: number }
  | { type: 'blockParentSet'; at: number; id: string; parentId: string | null; extent: 'parent' | null }
  | { type: 'blockRemoved'; at: number; id: string; blockIds: string[]; edgeIds: string[] }
  | { type: 'edgeAdded'; at: number; edge: Edge }
  | { type: 'edgeRemoved'; at: number; id: string }
  | { type: 'blockEnabledToggled'; at: number; id: string; enabled: boolean }
  | { type: 'blockHandlesToggled'; at: number; id: string; horizontalHandles: boolean }
  | { type: 'blockWideSet'; at: number; id: string; isWide: boolean }
  | { type: 'blockAdvancedModeSet'; at: number; id: string; advancedMode: boolean; clearedMemories: boolean }
  | { type: 'blockDuplicated'; at: number; sourceId: string; block: BlockState }
  | { type: 'blockRenamed'; at: number; id: string; name: string; rewrites: ValueChange[] }
  | { type: 'subBlockValueSet'; at: number; id: string; subBlockId: string; subBlockType: string; value: unknown }
  /** A value set by the user with the selectors depending on it emptied: one edit, one history entry. */
  | { type: 'subBlockValueSetAndCleared'; at: number; id: string; subBlockId: string; subBlockType: string; value: unknown; cleared: string[] }
  | { type: 'loopUpdated'; at: number; id: string; iterations?: number; loopType?: LoopType; forEachItems?: unknown }
  | {
      type: 'parallelUpdated';
      at: number;
      id: string;
      count?: number;
      distribution?: unknown;
      parallelType?: ParallelType;
    }
  | { type: 'workflowCleared'; at: number }
  | {
      type: 'yamlImported';
      at: number;
      blocks: Record<string, BlockState>;
      edges: Edge[];
      description?: string;
      checkpoint?: Checkpoint;
    }
  | { type: 'stateReplaced'; at: number; blocks: Record<string, BlockState>; edges: Edge[] };

/** Events about history, deployment and variables; they do not push history. */
type OtherEvent =
  | { type: 'workflowStarted'; at: number; block: BlockState }
  | { type: 'undone'; at: number }
  | { type: 'redone'; at: number }
  | { type: 'historyReverted'; at: number; index: number }
  | {
      type: 'revertedToDeployed';
      at: number;
      blocks: Record<string, BlockState>;
      edges: Edge[];
      deployedAt: number;
      hasActiveWebhook: boolean;
    }
  | { type: 'variableAdded'; at: number; variable: Variable }
  | { type: 'variableUpdated'; at: number; variable: Variable; rewrites: ValueChange[] }
  | { type: 'variableDeleted'; at: number; id: string }
  | { type: 'variableDuplicated'; at: number; sourceId: string; variable: Variable }
  | { type: 'variablesReplaced'; at: number; variables: Record<string, Variable> }
  | { type: 'deploymentStatusSet'; at: number; isDeployed: boolean; deployedAt: number | null }
  | { type: 'needsRedeploymentSet'; at: number; needsRedeployment: boolean }
  | { type: 'webhookActiveSet'; at: number; hasActiveWebhook: boolean };

/** Everything that can happen to a workflow; each event carries all `evolve` needs. */
type WorkflowEvent = GraphEvent | OtherEvent;
type WorkflowEventType = WorkflowEvent['type'];

export type { ValueChange, Checkpoint, GraphEvent, OtherEvent, WorkflowEvent, WorkflowEventType };
