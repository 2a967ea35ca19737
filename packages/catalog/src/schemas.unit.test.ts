import { describe, expect, it } from 'vitest';
import { listBlocks } from './blocks/registry.js';
import { listTools } from './tools/registry.js';
import {
  blockConfigSchema,
  getAllBlocksRequestSchema,
  getBlocksMetadataRequestSchema,
  toolConfigSchema,
  validateBlockRequestSchema,
} from './schemas.js';

describe('schemas', () => {
  it('every block and tool matches its schema', () => {
    const bad = [
      ...listBlocks().flatMap((b) => (blockConfigSchema.safeParse(b).success ? [] : [b.type])),
      ...listTools().flatMap((t) => (toolConfigSchema.safeParse(t).success ? [] : [t.id])),
    ];
    expect(bad).toEqual([]);
  });

  it('refuses a metadata request without blockIds with a clear error', () => {
    const result = getBlocksMetadataRequestSchema.safeParse({});
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('blockIds is required and must be an array of block type ids');
    expect(getBlocksMetadataRequestSchema.parse({ blockIds: ['slack'] })).toEqual({ blockIds: ['slack'] });
  });

  it('defaults the validate params and the get-all-blocks details flag', () => {
    expect(validateBlockRequestSchema.parse({ blockType: 's3' })).toEqual({ blockType: 's3', params: {} });
    expect(validateBlockRequestSchema.safeParse({}).error?.issues[0]?.message).toBe('blockType is required');
    expect(getAllBlocksRequestSchema.parse({})).toEqual({ includeDetails: false });
    expect(getAllBlocksRequestSchema.safeParse({ filterCategory: 'widgets' }).success).toBe(false);
  });
});
