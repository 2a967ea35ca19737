import { ApplicationFailure, patched } from '@temporalio/workflow';
import type { AttemptsExhausted } from '../retry.js';

/** The HTTP request tool (the API block): a failed request keeps the answer's data, status and headers beside `{error}`. */
const HTTP_TOOL_ID = 'http_request';
const HTTP_ANSWER_FIELDS: ReadonlySet<string> = new Set(['data', 'status', 'headers']);

/** What a failed HTTP request answered (4xx: `HTTP error {status}: …` with the response), for an error path to read. */
function httpAnswer(toolId: string, output: unknown): Record<string, unknown> | undefined {
  if (toolId !== HTTP_TOOL_ID || output === null || typeof output !== 'object') return undefined;
  const answer = Object.fromEntries(Object.entries(output).filter(([k]) => HTTP_ANSWER_FIELDS.has(k)));
  return Object.keys(answer).length > 0 ? answer : undefined;
}

/**
 * Runs recorded before a failed HTTP request kept its answer had the block's output `{error}` only:
 * they replay as they ran (a long answer would now be stored aside or its kept-aside body loaded for
 * a reader, new activities, and a branch reading `<api.status>` could go another way). Asked only
 * when there is an answer to keep, so other runs record no marker.
 */
export const HTTP_ERROR_ANSWER_PATCH = 'http-error-answer';

/** The answer a failed HTTP request keeps beside `{error}`, for runs under patch `http-error-answer`. */
export function keptAnswer(toolId: string, output: unknown): Record<string, unknown> | undefined {
  const answer = httpAnswer(toolId, output);
  return answer !== undefined && patched(HTTP_ERROR_ANSWER_PATCH) ? answer : undefined;
}

/**
 * What the last try of a call that failed transiently answered: the `output` the integrations worker
 * puts in its retryable failure's details (`ToolFailureDetails` of @weft/contracts: a 429's or 5xx's response).
 */
export function failureAnswer(err: AttemptsExhausted): unknown {
  for (let current: unknown = err.cause; current instanceof Error; current = current.cause) {
    if (current instanceof ApplicationFailure) {
      const details: unknown = current.details?.[0];
      return details !== null && typeof details === 'object' && 'output' in details ? details.output : undefined;
    }
  }
  return undefined;
}
