import { z } from 'zod';
import { WorkflowError } from './errors.js';
import { id, idRecord } from './idSchema.js';
import { normalizeParallelType } from './model/subflows.js';

/** Most blocks one removeBlock may name in `ids` (a select-all delete of a large workflow fits). */
const MAX_REMOVED_BLOCKS = 10_000;
const position = z.object({ x: z.number().finite(), y: z.number().finite() });
const variableType = z.enum(['plain', 'number', 'boolean', 'object', 'array', 'string']);
const variableInput = z.object({
  id: id.optional(),
  name: z.string(),
  type: variableType,
  value: z.unknown(),
});

const blockDataSchema = z.looseObject({
  parentId: id.optional(),
  extent: z.literal('parent').optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  count: z.number().optional(),
  collection: z.unknown().optional(),
  loopType: z.enum(['for', 'forEach']).optional(),
  /** §3 Parallel: anything but count is read as collection, as updateParallel reads it. */
  parallelType: z.string().transform(normalizeParallelType).optional(),
});

/** A whole block as the spec's state sync sends it; flags take their §3 defaults. */
const blockStateSchema = z.object({
  id,
  type: z.string().min(1),
  name: z.string(),
  position,
  subBlocks: idRecord(z.string(), z.object({ id, type: z.string(), value: z.unknown() })).default({}),
  outputs: z.record(z.string(), z.unknown()).default({}),
  enabled: z.boolean().default(true),
  horizontalHandles: z.boolean().default(true),
  isWide: z.boolean().default(false),
  height: z.number().default(0),
  advancedMode: z.boolean().default(false),
  data: blockDataSchema.default({}),
});
const edgeSchema = z.object({
  id,
  source: id,
  target: id,
  sourceHandle: z.string().optional(),
  targetHandle: z.string().optional(),
});

/** Validates untrusted command JSON; `type` picks the command (issue 3 command list). */
const commandSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('addBlock'),
    id: id.optional(),
    blockType: z.string().min(1),
    name: z.string().optional(),
    position,
    parentId: id.optional(),
    data: blockDataSchema.optional(),
    /** A pasted block's form values (sub-block id → value, ids as setSubBlockValue takes them) and settings, added in the same one undoable edit. */
    values: idRecord(id, z.unknown()).optional(),
    enabled: z.boolean().optional(),
    isWide: z.boolean().optional(),
    horizontalHandles: z.boolean().optional(),
    advancedMode: z.boolean().optional(),
  }),
  z.object({ type: z.literal('moveBlock'), id, position }),
  z.object({ type: z.literal('resizeBlock'), id, width: z.number().nonnegative(), height: z.number().nonnegative() }),
  /** Grows a loop or parallel to at least this size, decided on the state the command meets (concurrent grows compose). */
  z.object({
    type: z.literal('growBlock'),
    id,
    minWidth: z.number().finite().nonnegative().optional(),
    minHeight: z.number().finite().nonnegative().optional(),
  }),
  z.object({ type: z.literal('setParent'), id, parentId: id.nullable(), extent: z.literal('parent').optional() }),
  /**
   * Removes one block (`id`) or several (`ids`) with their children and edges: one blockRemoved
   * event, so one undo brings them all back.
   */
  z
    .object({ type: z.literal('removeBlock'), id: id.optional(), ids: z.array(id).min(1).max(MAX_REMOVED_BLOCKS).optional() })
    .superRefine((command, ctx) => {
      if (command.id === undefined && command.ids === undefined) {
        ctx.addIssue({ code: 'custom', path: ['id'], message: 'a block id is required (id, or ids for several blocks)' });
      } else if (command.id !== undefined && command.ids !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['ids'], message: 'give id or ids, not both' });
      }
    }),
  z.object({
    type: z.literal('addEdge'),
    id: id.optional(),
    source: id,
    target: id,
    sourceHandle: z.string().optional(),
    targetHandle: z.string().optional(),
  }),
  z.object({ type: z.literal('removeEdge'), id }),
  z.object({ type: z.literal('toggleEnabled'), id }),
  z.object({ type: z.literal('toggleHandles'), id }),
  z.object({ type: z.literal('setWide'), id, isWide: z.boolean().optional() }),
  z.object({ type: z.literal('setAdvancedMode'), id, advancedMode: z.boolean() }),
  z.object({ type: z.literal('duplicateBlock'), id, newId: id.optional() }),
  z.object({ type: z.literal('renameBlock'), id, name: z.string() }),
  z.object({
    type: z.literal('setSubBlockValue'),
    id,
    subBlockId: id,
    value: z.unknown(),
    /** Sub-blocks of the same block emptied in the same edit: the selectors whose list was of this value's choice. */
    clear: z.array(id).max(20).optional(),
  }),
  z.object({
    type: z.literal('updateLoop'),
    id,
    iterations: z.number().finite().optional(),
    loopType: z.enum(['for', 'forEach']).optional(),
    forEachItems: z.unknown().optional(),
  }),
  z.object({
    type: z.literal('updateParallel'),
    id,
    count: z.number().finite().optional(),
    distribution: z.unknown().optional(),
    parallelType: z.string().optional(),
  }),
  z.object({ type: z.literal('clearWorkflow') }),
  z.object({ type: z.literal('undo') }),
  z.object({ type: z.literal('redo') }),
  z.object({ type: z.literal('revertToHistory'), index: z.number().int().nonnegative() }),
  z.object({ type: z.literal('revertToDeployed') }),
  z.object({ type: z.literal('addVariable'), id: id.optional(), name: z.string(), variableType, value: z.unknown() }),
  z.object({
    type: z.literal('updateVariable'),
    id,
    name: z.string().optional(),
    variableType: variableType.optional(),
    value: z.unknown().optional(),
  }),
  z.object({ type: z.literal('deleteVariable'), id }),
  z.object({ type: z.literal('duplicateVariable'), id, newId: id.optional() }),
  z.object({ type: z.literal('replaceVariables'), variables: z.array(variableInput) }),
  z.object({
    type: z.literal('importYaml'),
    yamlContent: z.string(),
    description: z.string().optional(),
    applyAutoLayout: z.boolean().optional(),
    createCheckpoint: z.boolean().optional(),
  }),
  z.object({
    type: z.literal('replaceState'),
    blocks: idRecord(z.string(), blockStateSchema),
    edges: z.array(edgeSchema),
    /**
     * The workflow's own version this state was read at (a copilot checkpoint): what the workflow
     * held then counts as stored, as its undo history does, however many steps ago that was.
     */
    restoresVersion: z.number().int().positive().optional(),
  }),
  z.object({ type: z.literal('setDeployed'), isDeployed: z.boolean(), deployedAt: z.number().optional() }),
  z.object({ type: z.literal('setNeedsRedeployment'), needsRedeployment: z.boolean() }),
  z.object({ type: z.literal('setWebhookActive'), hasActiveWebhook: z.boolean() }),
]);

/** An editing command (issue 3 command list). */
type Command = z.infer<typeof commandSchema>;
type CommandType = Command['type'];
/** The command of one type. */
type CommandOf<T extends CommandType> = Extract<Command, { type: T }>;

function describeIssue(issue: z.core.$ZodIssue): string {
  // A refused record key: name the record and the key (the path's last part is the key itself, maybe "").
  const keyIssue = issue.code === 'invalid_key';
  const parts = keyIssue ? issue.path.slice(0, -1) : issue.path;
  const path = parts.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
  const message = keyIssue ? `key ${JSON.stringify(issue.path.at(-1) ?? '')}: ${issue.issues.map((inner) => inner.message).join(', ')}` : issue.message;
  return `${path.replace(/^\./, '') || 'command'}: ${message}`;
}

/** Parse one untrusted command; throws a 'validation' WorkflowError naming the field. */
function parseCommand(input: unknown): Command {
  const result = commandSchema.safeParse(input);
  if (result.success) return result.data;
  throw new WorkflowError('validation', `Invalid command: ${result.error.issues.map(describeIssue).join('; ')}`);
}

/** Parse a batch of untrusted commands; field names are prefixed with the command index. */
function parseCommands(input: unknown): Command[] {
  const result = z.array(commandSchema).safeParse(input);
  if (result.success) return result.data;
  throw new WorkflowError('validation', `Invalid commands: ${result.error.issues.map(describeIssue).join('; ')}`);
}

export { commandSchema, blockStateSchema, edgeSchema, parseCommand, parseCommands };
export type { Command, CommandType, CommandOf };
