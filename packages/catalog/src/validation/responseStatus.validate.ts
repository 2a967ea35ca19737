import { isBlank, numberOf } from '../paramValues.js';

/** Statuses a Response block may answer with: final ones (a 1xx is interim and would leave the caller waiting). */
export const MIN_RESPONSE_STATUS = 200;
export const MAX_RESPONSE_STATUS = 599;

/** Whether a status can answer an HTTP caller: a whole number from 200 to 599. */
export function isAnswerStatus(status: unknown): status is number {
  return typeof status === 'number' && Number.isInteger(status) && status >= MIN_RESPONSE_STATUS && status <= MAX_RESPONSE_STATUS;
}

/** Why a Response block's Status Code cannot answer, naming the field; undefined when it can or is blank (200). */
export function responseStatusError(value: unknown): string | undefined {
  if (isBlank(value) || isAnswerStatus(numberOf(value))) return undefined;
  const shown = typeof value === 'string' ? value.trim() : JSON.stringify(value);
  return `Status Code must be a whole number from ${MIN_RESPONSE_STATUS} to ${MAX_RESPONSE_STATUS} (got ${shown})`;
}

/** The Response block's parameters: its Status Code (a reference in it is left to the run by the deploy check). */
export function validateResponse(params: Record<string, unknown>): string | undefined {
  return responseStatusError(params.status);
}
