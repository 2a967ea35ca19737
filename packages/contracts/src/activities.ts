/**
 * Temporal activity contracts between the runner's workflows and the integrations worker.
 * Workflows import these as types only; the integrations service implements them.
 */

/** Runs a function block's code in the sandbox. */
export interface ExecuteFunctionInput {
  code: string;
  params: Record<string, unknown>;
  envVars: Record<string, string>;
  timeoutMs: number;
  requestId?: string;
}

/** Timing of one tool or block call (spec 000 §3, tool result). */
export interface Timing {
  startTime: string;
  endTime: string;
  duration: number;
}

/** What a sandboxed function answers: a failure is a value, never a throw. */
export interface ExecuteFunctionOutput {
  success: boolean;
  output: { result: unknown; stdout: string };
  error?: string;
  timing: Timing;
}

/** The activities served on the integrations task queue. */
export interface IntegrationActivities {
  executeFunction(input: ExecuteFunctionInput): Promise<ExecuteFunctionOutput>;
}

/** Task queue names, prefixed by the instance so stacks can share one Temporal. */
export function integrationsTaskQueue(instance: string): string {
  return `${instance}-integrations`;
}

export function runnerTaskQueue(instance: string): string {
  return `${instance}-runner`;
}
