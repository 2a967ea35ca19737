import type { BlockState, Edge, Position, Variable } from './model/state.js';

/** What a new block takes from its catalogue definition (a structural subset of `@weft/catalog`'s BlockConfig). */
type BlockDefinition = {
  name?: string;
  /** The catalogue's category; blocks of `triggers` (and the starter) never go inside a loop or parallel. */
  category?: string;
  subBlocks: ReadonlyArray<{ readonly id: string; readonly type: string; readonly defaultValue?: unknown }>;
  outputs: Readonly<Record<string, unknown>>;
};

/** Finds a block definition by type; the service passes `@weft/catalog`'s `getBlock`. */
interface BlockDefinitionLookup {
  (type: string): BlockDefinition | undefined;
}

/** The deployed version of a workflow, as the registry keeps it. */
type DeployedState = {
  blocks: Record<string, BlockState>;
  edges: Edge[];
  /** The workflow variables deployed with it; absent for a deployment saved before they were kept. */
  variables?: Record<string, Pick<Variable, 'id' | 'name' | 'type' | 'value'>>;
  deployedAt?: number;
};

/** Blocks and edges to lay out; ids of children are laid out inside their container. */
type LayoutInput = { blocks: Record<string, BlockState>; edges: Edge[] };

/** Computes block positions (and container sizes); must be pure and deterministic. */
type LayoutFunction = (input: LayoutInput) => Record<string, { position: Position; width?: number; height?: number }>;

/** Everything `decide` reads from outside: clock, ids, catalogue, deployed state, layout. */
interface DecideContext {
  /** Epoch milliseconds stamped on the events. */
  now: number;
  newId: () => string;
  blockDefinition: BlockDefinitionLookup;
  /** For revertToDeployed; supplied by the service. */
  deployedState?: DeployedState;
  /**
   * The stored blocks of the workflow a replaceState copies (a duplicate), read by the service from
   * its own store: the copy may keep that state's starters (issue 14), never add one.
   */
  copiedState?: { blocks: Record<string, BlockState> };
  /**
   * The workflow's own stored blocks at each version a replaceState's `restoresVersion` names, read
   * by the service from its event log: the save may keep what the workflow held then (an old name
   * clash, a nested trigger, a second starter), as it may what its undo history holds.
   */
  restoredStates?: Readonly<Record<number, { blocks: Record<string, BlockState> }>>;
  /** Stamped on new variables. */
  workflowId?: string;
  /** For importYaml with applyAutoLayout, which is refused without it; the service passes `@weft/workflow/layout`'s `elkLayout`. */
  layout?: LayoutFunction;
}

export type { BlockDefinition, BlockDefinitionLookup, DeployedState, LayoutInput, LayoutFunction, DecideContext };
