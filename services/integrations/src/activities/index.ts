import type { ExecuteFunctionInput, ExecuteFunctionOutput, IntegrationActivities } from '@weft/contracts';
import { withRequestContext } from '@weft/platform';
import { runInSandbox } from '../function/sandbox.js';

/** The integrations task queue's activities, built from their dependencies (none yet but the sandbox). */
export function createActivities(): IntegrationActivities {
  return {
    executeFunction(input) {
      return withRequestContext({ requestId: input.requestId ?? 'temporal' }, () => executeFunction(input));
    },
  };
}

/** Runs a function block's code; a failing function is a value with its error and timing, never a throw. */
export async function executeFunction(input: ExecuteFunctionInput): Promise<ExecuteFunctionOutput> {
  const start = new Date();
  const res = await runInSandbox({ code: input.code, params: input.params, envVars: input.envVars, timeoutMs: input.timeoutMs });
  const end = new Date();
  const timing = { startTime: start.toISOString(), endTime: end.toISOString(), duration: end.getTime() - start.getTime() };
  return res.success
    ? { success: true, output: { result: res.result, stdout: res.stdout }, timing }
    : { success: false, output: { result: null, stdout: res.stdout }, error: res.error, timing };
}
