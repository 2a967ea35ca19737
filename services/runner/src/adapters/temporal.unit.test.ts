import { ActivityFailure, ApplicationFailure, CancelledFailure, WorkflowFailedError } from '@temporalio/client';
import { RetryState } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { UNRECORDABLE_RUN_EVENT } from '../executionsStore.js';
import { endedWithout } from './temporal.js';

const failed = (cause: Error) => new WorkflowFailedError('Workflow execution failed', cause, RetryState.NON_RETRYABLE_FAILURE);
const refusal = 'Run events (blockCompleted, runCompleted) of execution r1 cannot be recorded: a value in them is nested too deeply to store (Maximum call stack size exceeded)';

describe('how a run whose workflow ended without a result is recorded', () => {
  it("an end that can never be recorded says so, with the run-log activity's reason (as a local activity fails it, or wrapped as an activity's)", () => {
    const expected = `The run's end could not be recorded: ${refusal}`;
    expect(endedWithout(failed(ApplicationFailure.nonRetryable(refusal, UNRECORDABLE_RUN_EVENT))).error).toBe(expected);
    const wrapped = new ActivityFailure('Activity task failed', 'recordRunEvent', '7', RetryState.NON_RETRYABLE_FAILURE, undefined, ApplicationFailure.nonRetryable(refusal, UNRECORDABLE_RUN_EVENT));
    expect(endedWithout(failed(wrapped))).toEqual({ success: false, output: null, logs: [], error: expected });
  });

  it("another activity failing the end (storing the run's logs) gives its own message, not 'Activity task failed'", () => {
    const storing = new ActivityFailure('Activity task failed', 'storeBlob', '9', RetryState.MAXIMUM_ATTEMPTS_REACHED, undefined, ApplicationFailure.retryable('connection terminated unexpectedly'));
    expect(endedWithout(failed(storing)).error).toBe('connection terminated unexpectedly');
    expect(endedWithout(failed(new CancelledFailure('cancelled')))).toMatchObject({ cancelled: true, error: 'Run cancelled' });
    expect(endedWithout(failed(ApplicationFailure.nonRetryable('The workflow has no blocks'))).error).toBe('The workflow has no blocks');
  });
});
