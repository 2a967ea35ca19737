import type { BlockState, Edge, LoopType, ParallelType, Position, Variable } from './model/state.js';

/** A sub-block value rewritten as a side effect (block or variable rename). */
type ValueChange = { blockId: string; subBlockId: string; value: unknown };

/** The graph before an import, kept when the import asked for a checkpoint. */
type Checkpoint = { blocks: Record<string, BlockState>; edges: Edge[] };

/**
 * Marks a graph event that belongs to the same user action (the same request's batch of commands)
 * as the graph event before it in the stream: it changes the history entry that event pushed instead
 * of pushing its own, so one undo takes the whole action back. Absent on every event stored before
 * it existed, which fold as they always did (one entry each).
 */
type StepMark = { joinsStep?: true };

/** Events that change the graph; each pushes one history entry, or joins the one before (`joinsStep`). */
type GraphEvent = StepMark &
  (
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
        /** What the import left out to keep the rules (a second starter), said to whoever imported. */
        warnings?: string[];
      }
    | { type: 'stateReplaced'; at: number; blocks: Record<string, BlockState>; edges: Edge[] }
  );

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
      /**
       * Absent in stored events (a revert leaves the workflow deployed, nothing to redeploy); the
       * gateway's event stream lays the registry's flags over them, so a client folding it keeps those.
       */
      isDeployed?: boolean;
      needsRedeployment?: boolean;
      /**
       * The deployed variables, which replace the draft's in the same history step (one undo brings
       * the draft's back). Absent: the draft's stay (a deployment without variables, or an event
       * stored before the revert carried them, when a variablesReplaced outside history followed).
       */
      variables?: Record<string, Variable>;
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

type GraphEventType = GraphEvent['type'];

/**
 * Every event type this build knows, graph events marked. A record over the union, so a new event
 * type does not compile until it is listed here.
 */
const KNOWN_EVENT_TYPES: Readonly<Record<WorkflowEventType, 'graph' | 'other'>> = {
  blockAdded: 'graph',
  blockMoved: 'graph',
  blockResized: 'graph',
  blockParentSet: 'graph',
  blockRemoved: 'graph',
  edgeAdded: 'graph',
  edgeRemoved: 'graph',
  blockEnabledToggled: 'graph',
  blockHandlesToggled: 'graph',
  blockWideSet: 'graph',
  blockAdvancedModeSet: 'graph',
  blockDuplicated: 'graph',
  blockRenamed: 'graph',
  subBlockValueSet: 'graph',
  subBlockValueSetAndCleared: 'graph',
  loopUpdated: 'graph',
  parallelUpdated: 'graph',
  workflowCleared: 'graph',
  yamlImported: 'graph',
  stateReplaced: 'graph',
  workflowStarted: 'other',
  undone: 'other',
  redone: 'other',
  historyReverted: 'other',
  revertedToDeployed: 'other',
  variableAdded: 'other',
  variableUpdated: 'other',
  variableDeleted: 'other',
  variableDuplicated: 'other',
  variablesReplaced: 'other',
  deploymentStatusSet: 'other',
  needsRedeploymentSet: 'other',
  webhookActiveSet: 'other',
};

/**
 * Whether this build knows the event's type. Events come from storage and the wire, so a newer
 * Weft may have written types an older build (an old browser tab, an old service instance during a
 * deploy) does not know; `evolve` leaves the state unchanged for those, and callers check here first
 * to refuse or resync rather than carry on with a state that silently missed an edit.
 */
function isKnownEvent(event: unknown): event is WorkflowEvent {
  if (typeof event !== 'object' || event === null || !('type' in event)) return false;
  const { type } = event;
  return typeof type === 'string' && Object.hasOwn(KNOWN_EVENT_TYPES, type);
}

/** Whether the event is a known one that changes the graph (and pushes a history entry). */
function isGraphEvent(event: { type: string }): event is GraphEvent {
  return Object.hasOwn(KNOWN_EVENT_TYPES, event.type) && KNOWN_EVENT_TYPES[event.type as WorkflowEventType] === 'graph';
}

export type { ValueChange, Checkpoint, StepMark, GraphEvent, GraphEventType, OtherEvent, WorkflowEvent, WorkflowEventType };
export { KNOWN_EVENT_TYPES, isKnownEvent, isGraphEvent };
