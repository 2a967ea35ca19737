import { z } from 'zod';
import { idRecord } from '../idSchema.js';

/** The format version `toYaml` writes. */
const YAML_VERSION = '1.0';

const connectionSchema = z.union([
  z.string().min(1).describe('target block id'),
  z.object({
    target: z.string().min(1),
    sourceHandle: z.string().optional(),
    targetHandle: z.string().optional(),
  }),
]);

/** One block of the YAML format, keyed by its id under `blocks`. */
const yamlBlockSchema = z.strictObject({
  type: z.string().min(1).describe('block type from the catalogue, or loop / parallel'),
  name: z.string().min(1),
  position: z.object({ x: z.number(), y: z.number() }).optional().describe('canvas position; relative to the parent for nested blocks'),
  parentId: z.string().min(1).optional().describe('id of the loop or parallel container holding this block'),
  enabled: z.boolean().optional().describe('default true'),
  horizontalHandles: z.boolean().optional().describe('default true'),
  isWide: z.boolean().optional().describe('default false'),
  advancedMode: z.boolean().optional().describe('default false'),
  height: z.number().optional().describe('default 0'),
  inputs: idRecord(z.string(), z.unknown()).optional().describe('sub-block id → value'),
  data: z.record(z.string(), z.unknown()).optional().describe('container settings: count, loopType, collection, parallelType, width, height'),
  connections: z.array(connectionSchema).optional().describe('outgoing edges: a target id or {target, sourceHandle, targetHandle}'),
});

/** A whole workflow in the YAML format. */
const yamlWorkflowSchema = z.strictObject({
  version: z.literal(YAML_VERSION).optional(),
  blocks: idRecord(z.string(), yamlBlockSchema),
});

type YamlBlock = z.infer<typeof yamlBlockSchema>;
type YamlConnection = z.infer<typeof connectionSchema>;
type YamlWorkflow = z.infer<typeof yamlWorkflowSchema>;

export { YAML_VERSION, yamlBlockSchema, yamlWorkflowSchema };
export type { YamlBlock, YamlConnection, YamlWorkflow };
