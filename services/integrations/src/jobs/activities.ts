import { ApplicationFailure } from '@temporalio/common';
import { ToolError } from '../tools/serviceTool.js';
import { createToolIO } from '../tools/runtime/executeTool.js';
import { TransientToolError, errorMessage } from '../tools/runtime/errors.js';
import type { AddressPolicy } from '../net/addressPolicy.js';
import type { BaseUrls } from '../tools/runtime/baseUrls.js';
import type { ToolJobDefinition } from './definitions.js';
import { TOOL_ERROR_TYPE, type ToolJobActivities, type ToolJobInput } from './types.js';

export interface ToolJobActivityDeps {
  policy: AddressPolicy;
  baseUrls: BaseUrls;
  jobs: Record<string, ToolJobDefinition>;
}

/** A tool's answered error is final; anything else (network, 429, 5xx) is retried by Temporal. */
function asFailure(err: unknown): Error {
  if (err instanceof ToolError) return ApplicationFailure.nonRetryable(err.message, TOOL_ERROR_TYPE);
  if (err instanceof TransientToolError) return ApplicationFailure.retryable(err.message, 'TransientToolError');
  return ApplicationFailure.retryable(errorMessage(err), 'Error');
}

/** The polling workflow's activities: start the job, check it once. */
export function createToolJobActivities(deps: ToolJobActivityDeps): ToolJobActivities {
  const definition = (input: ToolJobInput): ToolJobDefinition => {
    const def = deps.jobs[input.toolId];
    if (!def) throw ApplicationFailure.nonRetryable(`Tool not found: ${input.toolId}`, TOOL_ERROR_TYPE);
    return def;
  };
  return {
    async startToolJob(input) {
      const def = definition(input);
      try {
        return await def.start(input.params, createToolIO(deps, input, input.toolId));
      } catch (err) {
        throw asFailure(err);
      }
    },
    async checkToolJob(input, jobId) {
      const def = definition(input);
      try {
        return await def.check(jobId, input.params, createToolIO(deps, input, input.toolId));
      } catch (err) {
        throw asFailure(err);
      }
    },
  };
}
