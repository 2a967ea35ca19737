import { ToolError } from '../serviceTool.js';
import { substituteInSource } from '../../function/placeholders.js';

/** `{{KEY}}`: an environment variable in code. */
export const ENV_PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/** Keys the execution layer adds to every call; never checked against a custom tool's schema (spec 000 §5). */
export const INTERNAL_KEYS: ReadonlySet<string> = new Set(['_context', 'workflowId', 'envVars']);

const TYPES = new Set(['string', 'number', 'boolean', 'array', 'object']);

function typeOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value;
}

/** The `parameters` part of a custom tool schema (`{function: {parameters}}`, or the parameters themselves). */
function parametersOf(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const fn = (schema as { function?: unknown }).function;
  if (typeof fn === 'object' && fn !== null && 'parameters' in fn) return (fn as { parameters?: unknown }).parameters;
  if ('parameters' in schema) return (schema as { parameters?: unknown }).parameters;
  return schema;
}

/**
 * Checks a custom tool call's arguments against its schema, word for word with spec 000 §5:
 * 'Invalid schema format', 'Required parameter missing: {name}', 'Unknown parameter: {name}',
 * 'Parameter {name} should be a {type}'. Internal keys are exempt. Throws a ToolError.
 */
export function validateCustomToolParams(schema: unknown, params: Record<string, unknown>): void {
  const parameters = parametersOf(schema);
  if (typeof parameters !== 'object' || parameters === null || (parameters as { type?: unknown }).type !== 'object') {
    throw new ToolError('Invalid schema format');
  }
  const rawProps = (parameters as { properties?: unknown }).properties;
  const properties = typeof rawProps === 'object' && rawProps !== null ? (rawProps as Record<string, unknown>) : {};
  const rawRequired = (parameters as { required?: unknown }).required;
  const required = Array.isArray(rawRequired) ? rawRequired.filter((r): r is string => typeof r === 'string') : [];
  for (const name of required) {
    if (params[name] === undefined || params[name] === null) throw new ToolError(`Required parameter missing: ${name}`);
  }
  for (const [name, value] of Object.entries(params)) {
    if (INTERNAL_KEYS.has(name)) continue;
    const prop = properties[name];
    if (prop === undefined) throw new ToolError(`Unknown parameter: ${name}`);
    if (value === undefined || value === null) continue;
    const expected = typeof prop === 'object' && prop !== null ? (prop as { type?: unknown }).type : undefined;
    if (typeof expected !== 'string' || !TYPES.has(expected)) continue;
    const actual = typeOf(value);
    const ok = expected === 'object' ? actual === 'object' : actual === expected;
    if (!ok) throw new ToolError(`Parameter ${name} should be a ${expected}`);
  }
}

/**
 * A custom tool's code failure, as every path answers it (the proxy, a run's agent, function execute
 * with isCustomTool): 'Custom tool execution error: {msg}' (spec 000 §8), msg being what the code
 * threw — its message without the error's name ('boom', not 'Error: boom') — or the limit it hit;
 * 'Custom tool execution failed' when there is none. The §5 checks of its params answer their own
 * messages as they are ('Required parameter missing: city'), before any code runs.
 */
export function customToolFailure(res: { error?: string | undefined; debug?: { errorType?: string | undefined } | undefined }): string {
  const error = res.error ?? '';
  const name = res.debug?.errorType;
  const msg = (name && error.startsWith(`${name}:`) ? error.slice(name.length + 1) : error).trim();
  return msg ? `Custom tool execution error: ${msg}` : 'Custom tool execution failed';
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const RESERVED = new Set(['params', 'environmentVariables', 'console', 'await', 'return', 'const', 'let', 'var', 'function', 'class', 'this', 'new', 'delete', 'typeof', 'in', 'of', 'if', 'else', 'for', 'while', 'do', 'switch', 'case', 'default', 'break', 'continue', 'try', 'catch', 'finally', 'throw', 'void', 'with', 'yield', 'import', 'export', 'super', 'null', 'true', 'false', 'undefined', 'NaN', 'Infinity', 'enum', 'debugger', 'instanceof', 'static', 'implements', 'interface', 'package', 'private', 'protected', 'public', 'let', 'eval', 'arguments']);

/**
 * Substitutes `{{KEY}}` with the environment variable's value and `<name>` with the parameter's
 * value (inside a string literal as its escaped text, elsewhere as a JavaScript literal, so code
 * stays valid whatever the value holds: substituteInSource); unknown
 * placeholders are left as written. Parameters are also declared as constants of their own name.
 */
export function prepareCustomToolCode(code: string, params: Record<string, unknown>, envVars: Record<string, string>): string {
  let out = substituteInSource(code, ENV_PLACEHOLDER, (m) => (m[1] !== undefined && Object.hasOwn(envVars, m[1]) ? { value: envVars[m[1]] } : undefined));
  out = substituteInSource(out, /<([A-Za-z_$][A-Za-z0-9_$]*)>/g, (m) => (m[1] !== undefined && Object.hasOwn(params, m[1]) && !INTERNAL_KEYS.has(m[1]) ? { value: params[m[1]] ?? null } : undefined));
  const decls = Object.keys(params)
    .filter((name) => IDENTIFIER.test(name) && !RESERVED.has(name) && !INTERNAL_KEYS.has(name))
    .map((name) => `const ${name} = params[${JSON.stringify(name)}];`)
    .join('\n');
  return decls ? `${decls}\n${out}` : out;
}
