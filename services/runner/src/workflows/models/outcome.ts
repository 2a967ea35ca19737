import { ApplicationFailure } from '@temporalio/workflow';
import type { CallModelOutput, ModelCost, ModelTokens, Timing } from '@weft/contracts';
import { innermostMessage } from '@weft/catalog';
import { AttemptsExhausted, attemptFields } from '../retry.js';
import type { BlockOutcome } from '../types.js';

/** Tokens as blocks report them: prompt, completion, total. */
export function blockTokens(t: ModelTokens): { prompt: number; completion: number; total: number } {
  return { prompt: t.prompt, completion: t.completion, total: t.total };
}

export function blockCost(c: ModelCost): { input: number; output: number; total: number } {
  return { input: c.input, output: c.output, total: c.total };
}

/** A block that made one model call (with its tries, when the workflow made them). */
export function fromCall(out: CallModelOutput, output: Record<string, unknown>, attempts?: Pick<BlockOutcome, 'attempts' | 'attemptLog'>): BlockOutcome {
  return { success: true, output, tokens: blockTokens(out.tokens), cost: blockCost(out.cost), ...attempts };
}

/** The standard model outputs of one call (§3: content, model, tokens, cost), and the warning of an answer cut off at the max tokens limit. */
export function modelOutput(out: CallModelOutput): Record<string, unknown> {
  return { content: out.content, model: out.model, tokens: blockTokens(out.tokens), cost: blockCost(out.cost), ...(out.warning ? { warning: out.warning } : {}) };
}

export function failed(error: string, output: unknown = null): BlockOutcome {
  return { success: false, output, error };
}

/** The timing a provider failure carries in its details (§8), wherever it sits in the cause chain. */
export function failureTiming(err: unknown): Timing | undefined {
  let current: unknown = err;
  while (current instanceof Error) {
    if (current instanceof ApplicationFailure) {
      const d: unknown = current.details?.[0];
      if (typeof d === 'object' && d !== null && 'timing' in d) return d.timing as Timing;
    }
    current = current.cause;
  }
  return undefined;
}

/** A failed activity or child workflow as a block failure: the provider's message, with timing (and the tries, when the workflow made them). */
export function fromError(err: unknown): BlockOutcome {
  const timing = failureTiming(err);
  const tries = err instanceof AttemptsExhausted ? attemptFields(err.attempts, err.tries) : {};
  return { ...failed(innermostMessage(err), timing ? { timing } : null), ...tries };
}
