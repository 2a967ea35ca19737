import type { CallContext } from '@weft/contracts';

/** One polling job's call (spec 001 §4): its tool, the params it was started with, and its polling. */
export interface ToolJobInput {
  toolId: string;
  params: Record<string, unknown>;
  context: CallContext;
  envVars: Record<string, string>;
  intervalMs: number;
  timeoutMs: number;
  /** The spec's message when the job does not end in time. */
  timeoutMessage: string;
}

/** How a job stands after one check. */
export type JobCheck = { state: 'pending' } | { state: 'done'; output: unknown } | { state: 'failed'; error: string; output?: unknown };

/** A job's end as the polling workflow answers it. */
export type JobOutcome = { success: true; output: unknown } | { success: false; error: string; output?: unknown };

/** The activities of the polling workflow (integrations task queue). */
export interface ToolJobActivities {
  /** Starts the job at its service; answers the service's job id. */
  startToolJob(input: ToolJobInput): Promise<string>;
  /** Asks the service once how the job stands. */
  checkToolJob(input: ToolJobInput, jobId: string): Promise<JobCheck>;
}

/** Failure type of a tool's answered (not retried) errors, as activities raise them. */
export const TOOL_ERROR_TYPE = 'ToolError';
