import { z } from 'zod';
import { SUB_BLOCK_TYPES, VALUE_TYPES } from './types.js';

const valueType = z.enum(VALUE_TYPES);
const subBlockType = z.enum(SUB_BLOCK_TYPES);
const conditionValue = z.union([z.string(), z.number(), z.boolean()]);
const conditionTest = z.object({ field: z.string().min(1), value: z.union([conditionValue, z.array(conditionValue)]), not: z.boolean().optional() });
const fn = z.custom<(params: Record<string, unknown>) => unknown>((v) => typeof v === 'function', 'must be a function');

/** Shape of a sub-block definition. */
export const subBlockConfigSchema = z.object({
  id: z.string().min(1),
  title: z.string().optional(),
  type: subBlockType,
  layout: z.enum(['full', 'half']).optional(),
  placeholder: z.string().optional(),
  options: z.array(z.object({ id: z.string(), label: z.string() })).optional(),
  condition: conditionTest.extend({ and: conditionTest.optional() }).optional(),
  mode: z.enum(['basic', 'advanced']).optional(),
  password: z.boolean().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  step: z.number().positive().optional(),
  rows: z.number().int().positive().optional(),
  acceptedTypes: z.string().optional(),
  multiple: z.boolean().optional(),
  maxSize: z.number().positive().optional(),
  hidden: z.boolean().optional(),
});

/** Shape of a block definition. */
export const blockConfigSchema = z.object({
  type: z.string().regex(/^[a-z][a-z0-9_]*$/),
  name: z.string().min(1),
  description: z.string().min(1),
  longDescription: z.string().min(1),
  docsLink: z.url(),
  category: z.enum(['blocks', 'tools', 'triggers']),
  bgColor: z.string().regex(/^#[0-9a-fA-F]{6}$/),
  icon: z.string().min(1),
  hideFromToolbar: z.boolean().optional(),
  subBlocks: z.array(subBlockConfigSchema),
  tools: z.object({
    access: z.array(z.string().min(1)),
    config: z.object({ tool: fn.optional(), params: fn.optional() }).optional(),
  }),
  inputs: z.record(z.string(), z.object({ type: valueType, required: z.boolean() })),
  outputs: z.record(z.string(), valueType),
});

/** Shape of a tool definition. */
export const toolConfigSchema = z.object({
  id: z.string().regex(/^[a-z][a-z0-9_]*$/),
  name: z.string().min(1),
  description: z.string().min(1),
  version: z.string().regex(/^\d+\.\d+\.\d+$/),
  params: z.record(
    z.string(),
    z.object({
      type: z.enum(['string', 'number', 'boolean', 'json', 'array', 'object']),
      required: z.boolean(),
      visibility: z.enum(['user-only', 'user-or-llm', 'hidden']),
      description: z.string().min(1),
      default: z.unknown().optional(),
    }),
  ),
  request: z.object({
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']),
    url: z.string().min(1),
    headers: z.record(z.string(), z.string()),
    isInternalRoute: z.boolean(),
  }),
  oauth: z.object({ required: z.boolean(), provider: z.string().min(1), scopes: z.array(z.string()) }).optional(),
});

/** Body of POST /api/blocks/validate. */
export const validateBlockRequestSchema = z.object({
  blockType: z.string({ error: 'blockType is required' }).min(1, 'blockType is required').max(200, 'blockType must be at most 200 characters'),
  params: z.record(z.string(), z.unknown()).default({}),
});

/** Body of POST /api/tools/get-blocks-metadata; `blockIds` is required. */
export const getBlocksMetadataRequestSchema = z.object({
  blockIds: z.array(z.string(), { error: 'blockIds is required and must be an array of block type ids' }),
});

/** Body of POST /api/tools/get-all-blocks. */
export const getAllBlocksRequestSchema = z.object({
  includeDetails: z.boolean().default(false),
  filterCategory: z.enum(['blocks', 'tools', 'triggers']).optional(),
});
