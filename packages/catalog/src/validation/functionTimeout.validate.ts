import { RUN_TIME_VALUE_SOURCE } from '../codeReferences.js';
import { isBlank, numberOf } from '../paramValues.js';

/** Longest time limit a function may ask for: in a run and through `POST /api/function/execute` alike. */
export const MAX_FUNCTION_TIMEOUT_MS = 300_000;

/** A `<block.path>` reference or `{{KEY}}`: checked by the runner once resolved. */
const RUN_TIME_VALUE = new RegExp(RUN_TIME_VALUE_SOURCE);

/**
 * Why a function's `timeout` (milliseconds) cannot be used, naming the field; undefined when it can,
 * or is blank (the 10 s default): a whole number from 1 to 300000. The rule of the run's function
 * block and of `POST /api/function/execute`, one copy.
 */
export function functionTimeoutError(value: unknown): string | undefined {
  if (isBlank(value)) return undefined;
  const ms = numberOf(value);
  if (!Number.isFinite(ms)) return 'timeout must be a number of milliseconds';
  if (!Number.isInteger(ms)) return 'timeout must be a whole number of milliseconds';
  if (ms < 1) return 'timeout must be positive';
  if (ms > MAX_FUNCTION_TIMEOUT_MS) return `timeout must be at most ${MAX_FUNCTION_TIMEOUT_MS} ms`;
  return undefined;
}

/** The function block's parameters: its timeout (a reference or `{{KEY}}` in it is checked once the run resolves it). */
export function validateFunction(params: Record<string, unknown>): string | undefined {
  const { timeout } = params;
  return typeof timeout === 'string' && RUN_TIME_VALUE.test(timeout) ? undefined : functionTimeoutError(timeout);
}
