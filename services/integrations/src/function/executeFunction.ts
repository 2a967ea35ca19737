import type { ExecuteFunctionOutput, FunctionDebug } from '@weft/contracts';
import { DEFAULT_FUNCTION_TIMEOUT_MS, type SandboxPool } from './sandbox.js';
import { ENV_PLACEHOLDER, customToolFailure, prepareCustomToolCode, validateCustomToolParams } from '../tools/runtime/customTool.js';
import { substituteInSource } from './placeholders.js';
import { errorMessage, redaction } from '../tools/runtime/errors.js';

/** A function execute request (spec 000 §7 `POST /api/function/execute`). */
export interface FunctionRequest {
  code: string;
  timeout?: number | undefined;
  envVars?: Record<string, string> | undefined;
  blockData?: Record<string, unknown> | undefined;
  blockNameMapping?: Record<string, string> | undefined;
  workflowId?: string | undefined;
  isCustomTool?: boolean | undefined;
  params?: Record<string, unknown> | undefined;
  schema?: unknown;
  /** Stops the code when aborted (the activity running it was cancelled). */
  signal?: AbortSignal | undefined;
}

export interface FunctionResponse {
  success: boolean;
  output: { result: unknown; stdout: string };
  error?: string;
  debug?: FunctionDebug;
}

/** The value at `path`, by own fields only: `<fn.result.constructor>` is a missing field, not Object's constructor. */
function lookup(value: unknown, path: string[]): unknown {
  let cur = value;
  for (const key of path) {
    if (typeof cur !== 'object' || cur === null || !Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

const normalize = (name: string) => name.toLowerCase().replace(/\s+/g, '');

/**
 * Function block code: `{{KEY}}` becomes the environment variable and `<block.path>` the value of
 * that block's output (block names compared lowercased without spaces, through blockNameMapping),
 * both written as substituteInSource writes them (text inside string literals, literals elsewhere);
 * anything else is left as written.
 */
export function resolveFunctionCode(code: string, envVars: Record<string, string>, blockData: Record<string, unknown>, mapping: Record<string, string>): string {
  const byName = new Map(Object.entries(mapping).map(([name, id]) => [normalize(name), id]));
  let out = substituteInSource(code, ENV_PLACEHOLDER, (m) => (m[1] !== undefined && Object.hasOwn(envVars, m[1]) ? { value: envVars[m[1]] } : undefined));
  out = substituteInSource(out, /<([A-Za-z0-9_ -]+)((?:\.[A-Za-z0-9_]+)+)>/g, (m) => {
    const name = m[1] ?? '';
    const id = byName.get(normalize(name)) ?? (Object.hasOwn(blockData, name) ? name : undefined);
    if (!id || !Object.hasOwn(blockData, id)) return undefined;
    const value = lookup(blockData[id], (m[2] ?? '').slice(1).split('.'));
    return value === undefined ? undefined : { value };
  });
  return out;
}

/**
 * Runs function execute; every failure is an answer (`success: false` with error and debug), never a
 * throw. The values of the environment variables the code was given are replaced by `[REDACTED]` in
 * the answer (result, stdout, error, debug), in every encoded form, as the tool runtime does for tool
 * results (its `redaction`): a function's output never carries a secret on to the next block or into a log.
 */
export async function executeFunctionRequest(sandbox: SandboxPool, req: FunctionRequest): Promise<FunctionResponse> {
  const secrets = redaction(Object.values(req.envVars ?? {}));
  const res = await runFunction(sandbox, req);
  if (secrets.forms.length === 0) return res;
  const output = { result: secrets.value(res.output.result), stdout: secrets.text(res.output.stdout) };
  const debug = res.debug ? { ...res.debug, ...(res.debug.stack !== undefined ? { stack: secrets.text(res.debug.stack) } : {}) } : undefined;
  return { ...res, output, ...(res.error !== undefined ? { error: secrets.text(res.error) } : {}), ...(debug ? { debug } : {}) };
}

async function runFunction(sandbox: SandboxPool, req: FunctionRequest): Promise<FunctionResponse> {
  const envVars = req.envVars ?? {};
  const params = req.params ?? {};
  const timeoutMs = req.timeout && req.timeout > 0 ? req.timeout : DEFAULT_FUNCTION_TIMEOUT_MS;
  if (!req.code.trim()) return { success: false, output: { result: null, stdout: '' }, error: req.isCustomTool ? 'No code provided for tool execution' : 'Code execution failed' };
  let code: string;
  if (req.isCustomTool) {
    try {
      if (req.schema !== undefined) validateCustomToolParams(req.schema, params);
    } catch (err) {
      return { success: false, output: { result: null, stdout: '' }, error: errorMessage(err) };
    }
    code = prepareCustomToolCode(req.code, params, envVars);
  } else {
    code = resolveFunctionCode(req.code, envVars, req.blockData ?? {}, req.blockNameMapping ?? {});
  }
  const lineOffset = code.split('\n').length - req.code.split('\n').length;
  const res = await sandbox.run({ code, params, envVars, timeoutMs, lineOffset: Math.max(0, lineOffset), signal: req.signal });
  if (res.success) return { success: true, output: { result: res.result, stdout: res.stdout } };
  const debug = res.debug;
  if (req.isCustomTool) return { success: false, output: { result: null, stdout: res.stdout }, error: customToolFailure(res), ...(debug ? { debug } : {}) };
  const located = debug?.line !== undefined ? `Line ${debug.line}:${debug.column ?? 0} - ${res.error}` : res.error;
  return { success: false, output: { result: null, stdout: res.stdout }, error: located || 'Code execution failed', ...(debug ? { debug } : {}) };
}

/** The activity's form: the same run, timed. */
export async function executeFunctionTimed(sandbox: SandboxPool, req: FunctionRequest): Promise<ExecuteFunctionOutput> {
  const start = new Date();
  const res = await executeFunctionRequest(sandbox, req);
  const end = new Date();
  return { ...res, timing: { startTime: start.toISOString(), endTime: end.toISOString(), duration: end.getTime() - start.getTime() } };
}
