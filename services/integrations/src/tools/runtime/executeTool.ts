import { STATUS_CODES } from 'node:http';
import { getTool, type ToolConfig } from '@weft/catalog';
import { baseUrlVariable } from '../services/baseUrls.js';
import type { ExecuteToolInput, ToolResult } from '@weft/contracts';
import { isCodedError, ERROR_MAP } from '@weft/platform';
import { ToolError, type ToolIO } from '../serviceTool.js';
import { NetworkError, OutboundRefusedError, RequestTimeoutError, guardedFetch } from '../../net/guardedFetch.js';
import { TransientToolError, errorMessage, forLog, redaction, type Redaction } from './errors.js';
import { httpRequest } from './httpRequest.js';
import { customToolFailure, prepareCustomToolCode, validateCustomToolParams } from './customTool.js';
import { callInternalTool, callRemoteTool } from './requestFromMetadata.js';
import type { ToolRuntimeDeps } from './types.js';

/** Custom tool code's time limit (the function execute default, spec 000 §9). */
const CUSTOM_TOOL_TIMEOUT_MS = 10_000;
const SECRET_NAME = /key|token|secret|password|credential|auth/i;
/**
 * Identifiers whose names look secret (an AWS access key id, a Jira issue key or manualIssueKey, an S3 object key);
 * answers must carry them (the S3 presigned link's X-Amz-Credential, the read issue's key).
 */
const IDENTIFIER_NAME = /(Id|[iI]ssueKey|objectKey)$/;

/** The spec's token failure (000 §8 'Failed to fetch access token: {status} {text}'). */
const TOKEN_FAILURE = 'Failed to fetch access token: ';

/** How a caller wants transient failures: thrown (activities, so Temporal retries) or answered. */
export type TransientMode = 'throw' | 'answer';

export interface ToolExecutor {
  /**
   * Runs one tool through the execution layer (spec 000 §4); answers a tool result, and throws only
   * TransientToolError in 'throw' mode. Aborting `signal` (a cancelled activity) closes the tool's
   * connections, stops its code and cancels its polling job.
   */
  execute(input: ExecuteToolInput, mode: TransientMode, signal?: AbortSignal): Promise<ToolResult>;
}

function timing(start: Date) {
  const end = new Date();
  return { startTime: start.toISOString(), endTime: end.toISOString(), duration: end.getTime() - start.getTime() };
}

/** The call's secrets: its environment values and the params whose names say secret, in every encoded form (built once per call). */
function secretsOf(input: ExecuteToolInput, params: Record<string, unknown>): Redaction {
  const out: string[] = Object.values(input.envVars ?? {});
  for (const [k, v] of Object.entries(params)) if (SECRET_NAME.test(k) && !IDENTIFIER_NAME.test(k) && typeof v === 'string') out.push(v);
  return redaction(out);
}

/** The guarded HTTP client, base URLs and context a service tool (or a polling job) works with. */
export function createToolIO(deps: Pick<ToolRuntimeDeps, 'baseUrls' | 'policy'>, input: Pick<ExecuteToolInput, 'context' | 'envVars'>, toolId: string, signal?: AbortSignal): ToolIO {
  return {
    context: input.context,
    envVars: input.envVars ?? {},
    baseUrl(service) {
      const url = deps.baseUrls.get(service);
      if (!url) throw new ToolError(`No base URL is known for service ${service}; set ${baseUrlVariable(service)} or WEFT_TOOL_BASE_URLS`);
      return url;
    },
    async fetch(url, init = {}) {
      let res: Response;
      try {
        res = await guardedFetch(deps.baseUrls.rewrite(toolId, url), { ...init, signal }, deps.policy);
      } catch (err) {
        if (err instanceof RequestTimeoutError || err instanceof NetworkError) throw new TransientToolError(err.message);
        if (err instanceof OutboundRefusedError) throw new ToolError(err.message);
        throw err;
      }
      if ((res.status === 429 || res.status >= 500) && !init.answerStatuses?.includes(res.status)) throw new TransientToolError(`HTTP error ${res.status}: ${res.statusText}`, res.status);
      return res;
    },
  };
}

export function createToolExecutor(deps: ToolRuntimeDeps): ToolExecutor {
  const toolIO = (input: ExecuteToolInput, toolId: string, signal: AbortSignal | undefined) => createToolIO(deps, input, toolId, signal);

  async function fetchToken(input: ExecuteToolInput, toolId: string, credentialId: string): Promise<string> {
    try {
      return await deps.credentials.accessToken(input.context, credentialId);
    } catch (err) {
      if (err instanceof TransientToolError) throw err;
      if (isCodedError(err) && (err.code === 'unavailable' || err.code === 'timeout')) throw new TransientToolError(`Failed to obtain credential for tool ${toolId}: ${err.message}`);
      const message = errorMessage(err);
      // The registry's own 'Failed to fetch access token: {provider status} {text}' (a revoked grant) is kept as it is.
      if (message.startsWith(TOKEN_FAILURE)) throw new ToolError(`Failed to obtain credential for tool ${toolId}: ${message}`);
      const status = isCodedError(err) ? ERROR_MAP[err.code].http : 500;
      throw new ToolError(`Failed to obtain credential for tool ${toolId}: ${TOKEN_FAILURE}${status} ${message}`);
    }
  }

  /**
   * The acting user's custom tools. A registry that cannot be reached (or answers too late) is
   * transient, as for a credential: the run tries the call again. Either way the failure answers spec
   * 000 §8's 'Failed to load custom tools: {statusText}' (the registry's status as HTTP names it).
   * A ToolError of the source is its own answer (§8's 'Invalid response format' for data that is not a list).
   */
  async function loadCustomTools(input: ExecuteToolInput) {
    try {
      return await deps.customTools.list(input.context);
    } catch (err) {
      if (err instanceof TransientToolError || err instanceof ToolError) throw err;
      const statusText = isCodedError(err) ? (STATUS_CODES[ERROR_MAP[err.code].http] ?? err.code) : errorMessage(err);
      const message = `Failed to load custom tools: ${statusText}`;
      deps.logger.warn({ toolId: input.toolId, error: forLog(errorMessage(err)) }, 'custom tools could not be loaded');
      if (isCodedError(err) && (err.code === 'unavailable' || err.code === 'timeout')) throw new TransientToolError(message);
      throw new ToolError(message);
    }
  }

  async function runCustom(input: ExecuteToolInput, params: Record<string, unknown>, signal: AbortSignal | undefined): Promise<unknown> {
    const id = input.toolId.slice('custom_'.length);
    const tools = await loadCustomTools(input);
    const tool = tools.find((t) => t.id === id) ?? tools.find((t) => t.title === id);
    if (!tool) throw new ToolError(`Tool not found: ${input.toolId}`);
    if (!tool.code.trim()) throw new ToolError('No code provided for tool execution');
    // The §5 checks answer their own messages, as function execute does (customToolFailure).
    validateCustomToolParams(tool.schema, params);
    const envVars = input.envVars ?? {};
    const res = await deps.runCode({ code: prepareCustomToolCode(tool.code, params, envVars), params, envVars, timeoutMs: CUSTOM_TOOL_TIMEOUT_MS, signal });
    if (!res.success) throw new ToolError(customToolFailure(res));
    return res.result;
  }

  function requireParams(tool: ToolConfig, params: Record<string, unknown>): void {
    for (const [name, param] of Object.entries(tool.params)) {
      if (!param.required || param.visibility !== 'user-or-llm') continue;
      const value = params[name];
      // {tool} is the tool's id, as in the runtime's other messages ('Failed to parse response from {tool}').
      if (value === undefined || value === null || value === '') throw new ToolError(`Parameter "${name}" is required for ${tool.id} but was not provided.`);
    }
  }

  async function run(input: ExecuteToolInput, params: Record<string, unknown>, signal: AbortSignal | undefined): Promise<{ success: boolean; output: unknown; error?: string }> {
    if (input.toolId.startsWith('custom_')) return { success: true, output: await runCustom(input, params, signal) };
    const tool = getTool(input.toolId);
    if (!tool) throw new ToolError(`Tool not found: ${input.toolId}`);
    requireParams(tool, params);
    if (tool.id === 'http_request') {
      const res = await httpRequest(params, deps.policy, signal);
      return res.ok ? { success: true, output: res.output } : { success: false, output: res.output, error: res.error ?? 'Unknown error occurred' };
    }
    if (deps.jobs?.has(tool.id)) {
      const job = await deps.jobs.run(input, params, signal);
      return job.success ? job : { success: false, output: job.output ?? {}, error: job.error };
    }
    const service = deps.serviceTools[tool.id];
    if (service) return { success: true, output: await service.execute(params, toolIO(input, tool.id, signal)) };
    if (tool.request.isInternalRoute) return callInternalTool(tool, params, input, deps.internal, signal);
    return callRemoteTool(tool, params, input, toolIO(input, tool.id, signal));
  }

  /** A failure the call answers (a tool error, a failed result) is logged at info, its text already redacted, cut as spec 000 §8 says. */
  function logAnswered(toolId: string, message: string): void {
    deps.logger.info({ toolId, error: forLog(message) }, 'tool call answered an error');
  }

  return {
    async execute(input, mode, signal) {
      const start = new Date();
      let params: Record<string, unknown> = { ...input.params };
      const secrets = secretsOf(input, params);
      try {
        // Resolve the tool first (000 §4): an unknown id is 'Tool not found', whatever credential it names.
        if (!input.toolId.startsWith('custom_') && !getTool(input.toolId)) throw new ToolError(`Tool not found: ${input.toolId}`);
        if (typeof params.credential === 'string' && params.credential) {
          const token = await fetchToken(input, input.toolId, params.credential);
          const { credential: _removed, ...rest } = params;
          params = { ...rest, accessToken: token };
          secrets.add(token);
        }
        const res = await run(input, params, signal);
        const output = secrets.value(res.output);
        if (res.success) return { success: true, output, timing: timing(start) };
        const error = secrets.text(res.error ?? 'Unknown error occurred');
        logAnswered(input.toolId, error);
        return { success: false, output, error, timing: timing(start) };
      } catch (err) {
        const message = secrets.text(errorMessage(err));
        if (err instanceof TransientToolError) {
          deps.logger.warn({ toolId: input.toolId, error: forLog(message) }, 'tool call failed transiently');
          // Thrown with what the call answered (a 429's or 5xx's response), so the run keeps the last try's answer.
          if (mode === 'throw') throw new TransientToolError(message, err.status, err.output === undefined ? undefined : secrets.value(err.output));
          if (err.output !== undefined) return { success: false, output: secrets.value(err.output), error: message, timing: timing(start) };
        } else if (err instanceof ToolError) {
          logAnswered(input.toolId, message);
        } else if (!signal?.aborted) {
          deps.logger.warn({ toolId: input.toolId, error: forLog(message) }, 'tool call failed');
        }
        const output = err instanceof ToolError && err.output !== undefined ? secrets.value(err.output) : {};
        return { success: false, output, error: message, timing: timing(start) };
      }
    },
  };
}
