import type { ModelProviderId } from '@weft/contracts';
import { OutboundRefusedError } from '../net/guardedFetch.js';

/** A request the user must fix (missing key, endpoint or prompt): never retried. */
export class ModelRequestError extends Error {
  readonly code = 'validation';
  constructor(message: string) {
    super(message);
    this.name = 'ModelRequestError';
  }
}

/** OpenAI's 429 code for an account out of credit: it stays so until billing changes, unlike a rate limit. */
export const INSUFFICIENT_QUOTA = 'insufficient_quota';

/** A provider answered with an error or could not be reached; `status` is absent for network failures, `code` is the provider's error code. */
export class ModelProviderError extends Error {
  constructor(
    message: string,
    readonly provider: ModelProviderId,
    readonly status?: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ModelProviderError';
  }

  /** 4xx answers other than timeouts, conflicts and rate limits will fail again: not worth a retry; nor is a 429 for an exhausted quota. */
  get retryable(): boolean {
    if (this.code === INSUFFICIENT_QUOTA) return false;
    return this.status === undefined || this.status === 408 || this.status === 409 || this.status === 429 || this.status >= 500;
  }
}

/** Status of an SDK error (openai and @anthropic-ai/sdk both carry `status`). */
export function statusOf(err: unknown): number | undefined {
  if (typeof err === 'object' && err !== null && 'status' in err && typeof err.status === 'number') return err.status;
  return undefined;
}

/** The outbound guard's refusal, when it is the error or its cause (SDKs wrap fetch failures as 'Connection error.'). */
function refusalIn(err: unknown): OutboundRefusedError | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof OutboundRefusedError) return e;
  }
  return undefined;
}

/** The provider's error code an SDK error carries (openai's APIError `code`), when it is a string. */
function codeOf(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string') return err.code;
  return undefined;
}

/** Wraps an SDK or fetch failure as a provider error, keeping the provider's message; a refused address is the user's to fix. */
export function toProviderError(err: unknown, provider: ModelProviderId): Error {
  if (err instanceof ModelProviderError || err instanceof ModelRequestError) return err;
  const refused = refusalIn(err);
  if (refused) return new ModelRequestError(refused.message);
  const message = err instanceof Error ? err.message : String(err);
  const status = statusOf(err);
  const code = status !== undefined ? codeOf(err) : undefined;
  return new ModelProviderError(message, provider, status, code);
}

/**
 * The provider stopped at the max tokens limit while the model was writing a call to `tool` (`stop` names
 * how the provider said so): its arguments are cut short, so the tool is not run; the user raises Max Tokens.
 */
export function cutToolCallError(tool: string, stop: string): ModelRequestError {
  return new ModelRequestError(
    `The model's answer was cut off by Max Tokens (maxTokens) while writing a call to tool "${tool || 'unnamed'}" (${stop}): the tool was not run; raise Max Tokens`,
  );
}

/** The provider stopped at the max tokens limit before the model wrote any text or tool call (a thinking model's budget spent on thoughts, or Gemini's cut call left out). */
export function emptyCutError(stop: string): ModelRequestError {
  return new ModelRequestError(`The model's answer was cut off by Max Tokens (maxTokens) before it wrote any text or tool call (${stop}): raise Max Tokens`);
}

/** The output's warning for an answer the provider cut off at the max tokens limit (`stop`: how it said so). */
export function cutShortWarning(stop: string): string {
  return `The answer was cut off at the max tokens limit (${stop}): it is incomplete`;
}
