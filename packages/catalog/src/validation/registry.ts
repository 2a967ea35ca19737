import { isKnownBlockType } from '../blocks/registry.js';
import type { ValidationResult } from '../types.js';

/** A block's parameter check: the spec's message when the parameters are unusable, else undefined. */
export type BlockValidator = (params: Record<string, unknown>) => string | undefined;

const VALIDATORS: Readonly<Record<string, BlockValidator>> = {};

/** Checks a block's parameters before it runs; answers the spec's message word for word on failure. */
export function validateBlockParams(blockType: string, params: Record<string, unknown>): ValidationResult {
  if (!isKnownBlockType(blockType)) return { success: false, error: `Unknown block type: ${blockType}` };
  const error = VALIDATORS[blockType]?.(params);
  return error === undefined ? { success: true } : { success: false, error };
}
