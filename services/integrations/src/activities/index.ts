import { ApplicationFailure } from '@temporalio/common';
import type { IntegrationActivities } from '@weft/contracts';
import { withRequestContext } from '@weft/platform';
import type { SandboxPool } from '../function/sandbox.js';
import { executeFunctionTimed } from '../function/executeFunction.js';
import type { ToolExecutor } from '../tools/runtime/executeTool.js';
import { TransientToolError } from '../tools/runtime/errors.js';

/** What the integrations activities are built from (the model layer adds its own beside these). */
export interface ActivityDeps {
  sandbox: SandboxPool;
  tools: ToolExecutor;
}

/** The integrations task queue's activities. */
export function createActivities(deps: ActivityDeps): IntegrationActivities {
  return {
    executeFunction(input) {
      return withRequestContext({ requestId: input.requestId ?? 'temporal' }, () =>
        executeFunctionTimed(deps.sandbox, { code: input.code, params: input.params, envVars: input.envVars, timeout: input.timeoutMs }),
      );
    },
    executeTool(input) {
      return withRequestContext({ requestId: input.context.requestId ?? 'temporal' }, async () => {
        try {
          return await deps.tools.execute(input, 'throw');
        } catch (err) {
          // Transient failures (network, timeouts, 429, 5xx, an unreachable registry) are retried by Temporal.
          if (err instanceof TransientToolError) throw ApplicationFailure.retryable(err.message, 'TransientToolError');
          throw err;
        }
      });
    },
  };
}
