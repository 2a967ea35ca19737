import type { InjectedSinks } from '@temporalio/worker';
import type { Sinks } from '@temporalio/workflow';
import { runChunksSubject, type RunStreamChunk } from '@weft/contracts';

/**
 * What the agent tool loop's workflow streams itself: its tool calls' states as each starts and ends
 * (a sink writes no command to history, so the states cost the loop no event and replay unchanged).
 */
export interface ModelStreamSinks extends Sinks {
  modelStream: {
    chunk(chunk: RunStreamChunk): void;
  };
}

/** The worker's side of `ModelStreamSinks`: each chunk published on the run's chunk subject, never again on replay. */
export function modelStreamSinks(instance: string, publish: ((subject: string, chunk: RunStreamChunk) => void) | undefined): InjectedSinks<ModelStreamSinks> {
  return {
    modelStream: {
      chunk: { fn: (_info, chunk) => publish?.(runChunksSubject(instance, chunk.executionId), chunk), callDuringReplay: false },
    },
  };
}
