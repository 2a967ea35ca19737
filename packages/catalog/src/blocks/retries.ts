import type { BlockConfig, SubBlockConfig } from '../types.js';

/** Most retries a block may ask for (issue 10: a per-block setting of 0-5 in advanced mode). */
export const MAX_BLOCK_RETRIES = 5;
/** Retries of a block that sets none: 2, so 3 tries. */
export const DEFAULT_BLOCK_RETRIES = 2;

/**
 * The retry setting of a block whose tool or model calls are retried after a transient failure
 * (network error, timeout, 429, 5xx): how many times after the first try. Advanced mode only.
 */
export const RETRIES_FIELD: SubBlockConfig = {
  id: 'retries',
  title: 'Retries',
  type: 'number',
  layout: 'half',
  placeholder: String(DEFAULT_BLOCK_RETRIES),
  description: `Tries again after a network error, timeout, 429 or 5xx answer: 0 to ${MAX_BLOCK_RETRIES} times (${DEFAULT_BLOCK_RETRIES} when empty)`,
  min: 0,
  max: MAX_BLOCK_RETRIES,
  integer: true,
  mode: 'advanced',
};

/** Blocks the run evaluates itself: no tool or model call of theirs is retried. */
const RUN_BY_THE_WORKFLOW = new Set(['starter', 'condition', 'function', 'response', 'workflow', 'thinking']);

/** Whether a block's calls are retried, so its form offers the retry setting. */
export function hasRetries(block: Pick<BlockConfig, 'type' | 'category'>): boolean {
  return block.category !== 'triggers' && !RUN_BY_THE_WORKFLOW.has(block.type);
}

/** The block with the retry setting last in its form when its calls are retried. */
export function withRetriesField(block: BlockConfig): BlockConfig {
  if (!hasRetries(block) || block.subBlocks.some((s) => s.id === RETRIES_FIELD.id)) return block;
  return { ...block, subBlocks: [...block.subBlocks, RETRIES_FIELD] };
}

/** The message for a retry setting that is not a whole number from 0 to 5 (empty means the default). */
export function retriesError(params: Record<string, unknown>): string | undefined {
  const raw = params[RETRIES_FIELD.id];
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return undefined;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw.trim()) : Number.NaN;
  if (Number.isInteger(n) && n >= 0 && n <= MAX_BLOCK_RETRIES) return undefined;
  return `Retries must be a whole number between 0 and ${MAX_BLOCK_RETRIES}`;
}
