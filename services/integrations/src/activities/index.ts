import { ApplicationFailure } from '@temporalio/common';
import type { IntegrationActivities } from '@weft/contracts';
import { withRequestContext } from '@weft/platform';
import type { SandboxPool } from '../function/sandbox.js';
import { executeFunctionTimed } from '../function/executeFunction.js';
import { heartbeating } from '../models/activities.js';
import type { ToolExecutor } from '../tools/runtime/executeTool.js';
import { TransientToolError } from '../tools/runtime/errors.js';

/** What the integrations activities are built from (the model layer adds its own beside these). */
export interface ActivityDeps {
  sandbox: SandboxPool;
  tools: ToolExecutor;
}

/**
 * How often a running function or tool activity tells Temporal it is alive. The runner gives these
 * activities a 15 s heartbeat timeout, so a call on a lost worker is tried again on another worker
 * within seconds instead of at its start-to-close timeout (Temporal sends at most one heartbeat per
 * 80 % of the timeout; beating more often keeps one always pending).
 */
export const INTEGRATION_HEARTBEAT_MS = 2_000;

/** The integrations task queue's activities. */
export function createActivities(deps: ActivityDeps): IntegrationActivities {
  return {
    executeFunction(input) {
      return withRequestContext({ requestId: input.requestId ?? 'temporal' }, () =>
        heartbeating(
          () => executeFunctionTimed(deps.sandbox, { code: input.code, params: input.params, envVars: input.envVars, timeout: input.timeoutMs }),
          INTEGRATION_HEARTBEAT_MS,
        ),
      );
    },
    executeTool(input) {
      return withRequestContext({ requestId: input.context.requestId ?? 'temporal' }, async () => {
        try {
          return await heartbeating(() => deps.tools.execute(input, 'throw'), INTEGRATION_HEARTBEAT_MS);
        } catch (err) {
          // Transient failures (network, timeouts, 429, 5xx, an unreachable registry) are retried by Temporal.
          if (err instanceof TransientToolError) throw ApplicationFailure.retryable(err.message, 'TransientToolError');
          throw err;
        }
      });
    },
  };
}
