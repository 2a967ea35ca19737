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

/** A provider answered with an error or could not be reached; `status` is absent for network failures. */
export class ModelProviderError extends Error {
  constructor(
    message: string,
    readonly provider: ModelProviderId,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ModelProviderError';
  }

  /** 4xx answers other than timeouts, conflicts and rate limits will fail again: not worth a retry. */
  get retryable(): boolean {
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

/** Wraps an SDK or fetch failure as a provider error, keeping the provider's message; a refused address is the user's to fix. */
export function toProviderError(err: unknown, provider: ModelProviderId): Error {
  if (err instanceof ModelProviderError || err instanceof ModelRequestError) return err;
  const refused = refusalIn(err);
  if (refused) return new ModelRequestError(refused.message);
  const message = err instanceof Error ? err.message : String(err);
  return new ModelProviderError(message, provider, statusOf(err));
}
