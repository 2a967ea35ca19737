export { WorkflowError } from './errors.js';
export type { WorkflowErrorCode } from './errors.js';
export { initialState, emptyGraph } from './model/state.js';
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
  WorkflowGraph,
  SubBlockValues,
  HistoryEntry,
  History,
  WorkflowState,
} from './model/state.js';
export { CONTAINER_SIZE, MIN_COUNT, MAX_COUNT, DEFAULT_COUNT, clampCount, deriveSubflows } from './model/subflows.js';
export { MAX_PAST_ENTRIES, historyEntry, historyView } from './model/history.js';
export type { HistoryItem, HistoryView } from './model/history.js';
export { encodeSnapshot, decodeSnapshot } from './model/snapshotCodec.js';
export { graphFingerprint } from './model/fingerprint.js';
export type { FingerprintInput } from './model/fingerprint.js';
export type { LeanSnapshot } from './model/snapshotCodec.js';
export { validateVariable, normalizeVariableType } from './model/variables.js';
export type {
  BlockDefinition,
  BlockDefinitionLookup,
  DeployedState,
  LayoutInput,
  LayoutFunction,
  DecideContext,
} from './context.js';
export { commandSchema, blockStateSchema, edgeSchema, parseCommand, parseCommands } from './commands.js';
export type { Command, CommandType, CommandOf } from './commands.js';
export type { ValueChange, Checkpoint, GraphEvent, GraphEventType, OtherEvent, WorkflowEvent, WorkflowEventType } from './events.js';
export { KNOWN_EVENT_TYPES, isKnownEvent, isGraphEvent } from './events.js';
export { DUPLICATE_OFFSET, startWorkflow } from './decide/addBlock.decide.js';
export { DEPLOYMENT_COMMANDS, decide, decideBatch, decideAndApply } from './decide/decide.js';
export { evolve, replay } from './evolve/evolve.js';
export { toYaml, fromYaml } from './yaml/codec.js';
export { MAX_NESTING_DEPTH, tooDeepPath } from './model/nesting.js';
export { YAML_VERSION, yamlWorkflowSchema } from './yaml/schema.js';
export type { YamlBlock, YamlConnection, YamlWorkflow } from './yaml/schema.js';
export { yamlStructureGuide } from './yaml/guide.js';
export type { YamlStructureGuide } from './yaml/guide.js';
