/**
 * References inside sub-block values, resolved against what a run has produced so far (pure: no
 * Temporal, no I/O; runs inside the workflow sandbox and in unit tests alike).
 *
 * - `<blockname.path.to.field>`: a block's output (names lowercased, spaces removed);
 * - `<start.input>`, `<start.input.x>`: the run's input (the starter's output is `{input}`);
 * - `<variable.name>`: a workflow variable, typed by its type;
 * - `<loop.index|currentItem|items>`, `<parallel.index|currentItem|items>`: the innermost container;
 * - `{{KEY}}`: an environment variable; a key named as the settings name one (`ENVIRONMENT_NAME`) that
 *   the run's environment lacks fails the value (`UnknownEnvironmentVariableError`, patch
 *   `unknown-env-var`), any other `{{…}}` (`{{a-b}}`, `{{x.y}}`) is text, left as written.
 * A value that is exactly one reference keeps the referenced value's type; anything else is text.
 */

import { ENVIRONMENT_NAME, REFERENCE_TOKEN_SOURCE, referenceName, referenceShape, scanCode } from '@weft/catalog';

/** How a block name is written inside a reference: lowercased, spaces removed (the catalogue's rule). */
export const normalizeName = referenceName;

/** What the scope answers for a block name used in a reference. */
export type BlockLookup = { kind: 'ok'; value: unknown } | { kind: 'unknown' } | { kind: 'error'; reason: string };

/** The loop or parallel a block runs in: `<loop.*>` / `<parallel.*>`. */
export interface IterationContext {
  index: number;
  currentItem: unknown;
  items: unknown;
}

/** Everything a reference may read. */
export interface ReferenceScope {
  /** A block output by normalized name (`start` names the starter). */
  block(name: string): BlockLookup;
  /** Workflow variables by normalized name, read by own keys: `<variable.constructor>` names no variable unless one is so named. */
  variables: Record<string, { type: string; value: unknown }>;
  /**
   * Whether a name no variable has but every object inherits (`constructor`) reads that member, which
   * resolved as empty: runs recorded before patch `own-block-ids` did (the workflow answers; asked only then).
   */
  inheritedVariables?: () => boolean;
  /**
   * Whether a path segment naming a member the value inherits but does not have (`constructor`,
   * `toString`, `__proto__`) reads that member: runs recorded before patch `own-value-paths` did
   * (the workflow answers; asked only then). Without it, paths read own members only.
   */
  inheritedPaths?: () => boolean;
  loop?: IterationContext;
  parallel?: IterationContext;
  envVars: Record<string, string>;
  /** Leave `{{KEY}}` as written (the log's view of a block's input: secrets never show). */
  maskEnv?: boolean;
  /**
   * Whether a `{{KEY}}` of a well-formed name the environment lacks fails (UnknownEnvironmentVariableError):
   * runs recorded before patch `unknown-env-var` left it as written (the workflow answers; asked only then).
   */
  unknownEnvFails?: () => boolean;
}

/** A reference that cannot be resolved; the message names the reference. */
export class ReferenceResolutionError extends Error {
  constructor(
    readonly reference: string,
    reason: string,
  ) {
    super(`Reference ${reference} cannot be resolved: ${reason}`);
    this.name = 'ReferenceResolutionError';
  }
}

/**
 * A `{{KEY}}` whose key is a well-formed name (`ENVIRONMENT_NAME`) that the run's environment does not
 * have: a typo would otherwise reach a model or an API as the literal text. `field` names the field
 * the value belongs to, when known (`inField`).
 */
export class UnknownEnvironmentVariableError extends Error {
  constructor(
    readonly key: string,
    readonly field?: string,
  ) {
    super(`Environment variable "${key}" was not found${field === undefined ? '' : ` in ${field}`}`);
    this.name = 'UnknownEnvironmentVariableError';
  }
}

/** Runs `resolve` for the value of one field: an unknown environment variable's error names `field`. */
export function inField<T>(field: string, resolve: () => T): T {
  try {
    return resolve();
  } catch (err) {
    if (err instanceof UnknownEnvironmentVariableError && err.field === undefined) throw new UnknownEnvironmentVariableError(err.key, field);
    throw err;
  }
}

const tokenAt = () => new RegExp(REFERENCE_TOKEN_SOURCE, 'y');
const tokensIn = () => new RegExp(REFERENCE_TOKEN_SOURCE, 'g');

/** The result of reading one token: a value, or the token left as written. */
type Read = { found: true; value: unknown } | { found: false };

function pathSegments(path: string): string[] {
  const out: string[] = [];
  for (const part of path.split('.').filter((p) => p !== '')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) {
      out.push(part);
      continue;
    }
    if (m[1] !== '') out.push(m[1] as string);
    for (const idx of (m[2] ?? '').matchAll(/\[(\d+)\]/g)) out.push(idx[1] as string);
  }
  return out;
}

/**
 * Reads a path inside a value by own members; a missing field is undefined, and so is a member the
 * value only inherits (`<start.input.constructor>`, `<fn.result.toString>`). `inherited` answers
 * whether such a member is read all the same (runs recorded before patch `own-value-paths`); it is
 * asked only when a segment names one.
 */
export function readPath(value: unknown, segments: readonly string[], inherited?: () => boolean): unknown {
  let current = value;
  for (const segment of segments) {
    if (current === null || current === undefined) return undefined;
    if (typeof current !== 'object') return undefined;
    if (!Object.hasOwn(current, segment) && !(segment in current && inherited?.() === true)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** A variable's value read by its type (§5 variable types: plain, number, boolean, object, array). */
export function typedVariable(type: string, value: unknown): unknown {
  switch (type) {
    case 'number': {
      if (typeof value === 'number') return value;
      const n = Number(String(value ?? '').trim());
      return Number.isNaN(n) ? value : n;
    }
    case 'boolean':
      return value === true || String(value).trim().toLowerCase() === 'true';
    case 'object':
    case 'array':
      if (typeof value !== 'string') return value;
      try {
        return JSON.parse(value) as unknown;
      } catch {
        return value;
      }
    default:
      return typeof value === 'string' || value === undefined || value === null ? (value ?? '') : value;
  }
}

function readIteration(ctx: IterationContext | undefined, segments: string[], inherited: (() => boolean) | undefined): Read {
  if (!ctx) return { found: false };
  const [field, ...rest] = segments;
  if (field === 'index' || field === 'currentItem' || field === 'items') return { found: true, value: readPath(ctx[field], rest, inherited) };
  return { found: true, value: undefined };
}

function variableNamed(scope: ReferenceScope, name: string): { type: string; value: unknown } | undefined {
  if (Object.hasOwn(scope.variables, name)) return scope.variables[name];
  return name in scope.variables && scope.inheritedVariables?.() === true ? scope.variables[name] : undefined;
}

function readReference(raw: string, root: string, path: string, scope: ReferenceScope): Read {
  const segments = pathSegments(path);
  const name = root.toLowerCase();
  const inherited = scope.inheritedPaths;
  if (name === 'variable') {
    const [varName, ...rest] = segments;
    const variable = varName === undefined ? undefined : variableNamed(scope, normalizeName(varName));
    if (!variable) throw new ReferenceResolutionError(raw, `no variable named "${varName ?? ''}"`);
    return { found: true, value: readPath(typedVariable(variable.type, variable.value), rest, inherited) };
  }
  if (name === 'loop' && scope.loop) return readIteration(scope.loop, segments, inherited);
  if (name === 'parallel' && scope.parallel) return readIteration(scope.parallel, segments, inherited);
  const looked = scope.block(normalizeName(root));
  if (looked.kind === 'unknown') return { found: false };
  if (looked.kind === 'error') throw new ReferenceResolutionError(raw, looked.reason);
  if (name === 'start' && segments.length > 0 && segments[0] !== 'input') {
    // `<start.x>` reads the input's field x when the starter's output has no such field.
    const direct = readPath(looked.value, segments, inherited);
    return { found: true, value: direct !== undefined ? direct : readPath(readPath(looked.value, ['input'], inherited), segments, inherited) };
  }
  return { found: true, value: readPath(looked.value, segments, inherited) };
}

function readToken(m: RegExpMatchArray, scope: ReferenceScope): Read {
  if (m[3] !== undefined) {
    const key = m[3];
    if (scope.maskEnv) return { found: false };
    if (!Object.prototype.hasOwnProperty.call(scope.envVars, key)) {
      if (ENVIRONMENT_NAME.test(key) && scope.unknownEnvFails?.() === true) throw new UnknownEnvironmentVariableError(key);
      return { found: false };
    }
    return { found: true, value: scope.envVars[key] };
  }
  return readReference(m[0], m[1] as string, m[2] ?? '', scope);
}

/** How a referenced value reads inside a longer text: strings as they are, other values as JSON. */
export function asText(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return JSON.stringify(value) ?? '';
}

/** Resolves the references in one text; a text that is exactly one reference keeps the value's type. */
export function resolveText(text: string, scope: ReferenceScope): unknown {
  const trimmed = text.trim();
  const single = tokenAt().exec(trimmed);
  if (single && single[0].length === trimmed.length) {
    const read = readToken(single, scope);
    return read.found ? read.value : text;
  }
  let out = '';
  let last = 0;
  for (const m of text.matchAll(tokensIn())) {
    const read = readToken(m, scope);
    out += text.slice(last, m.index) + (read.found ? asText(read.value) : m[0]);
    last = m.index + m[0].length;
  }
  return out + text.slice(last);
}

/** Resolves references in every string of a sub-block value (tables, lists and objects included). */
export function resolveValue(value: unknown, scope: ReferenceScope): unknown {
  if (typeof value === 'string') return resolveText(value, scope);
  if (Array.isArray(value)) return value.map((v) => resolveValue(v, scope));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveValue(v, scope)]));
  }
  return value;
}

/** A block's values by sub-block id, each resolved; an unknown environment variable's error names its field (`label` of the id). */
export function resolveFields(values: Record<string, unknown>, scope: ReferenceScope, label: (id: string) => string = (id) => id): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([id, v]) => [id, inField(label(id), () => resolveValue(v, scope))]));
}

/** The block names (normalized) a value's references read, for loading large outputs first. */
export function referencedNames(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    for (const m of value.matchAll(tokensIn())) if (m[1] !== undefined) into.add(normalizeName(m[1]));
  } else if (Array.isArray(value)) {
    for (const v of value) referencedNames(v, into);
  } else if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) referencedNames(v, into);
  }
  return into;
}

/** Code with its references turned into reads of `params` (values, never spliced source). */
export interface RewrittenCode {
  code: string;
  params: Record<string, unknown>;
  /** The environment variables the code reads (`{{KEY}}` with a known key): all the sandbox gets. */
  envKeys: string[];
  /** References to blocks the workflow does not have (`<nosuch.result>`) outside strings, left as written in `code`. */
  unknownBlocks: string[];
  /** The same inside string literals and template literal text (`'<system.web>'`): text, left as written. */
  unknownBlocksInStrings: string[];
}

/**
 * What counts as a reference to a block when no block has its name: `<name.path>` written as the
 * deploy check reads references (`referenceShape` of @weft/catalog), so `a <b` or `'<div>'` in code
 * stays code. `<loop.…>` and `<parallel.…>` outside their container are no block references.
 */
function looksLikeBlockReference(m: RegExpExecArray): boolean {
  const root = (m[1] ?? '').toLowerCase();
  return root !== 'loop' && root !== 'parallel' && referenceShape(m) !== undefined;
}

/**
 * Rewrites references in JavaScript so their values reach the code as data: outside strings a
 * reference becomes `params["<ref>"]` and `{{KEY}}` becomes `environmentVariables["KEY"]`; inside a
 * string literal the string is closed, the value's text concatenated and the string reopened (in a
 * template literal, `${…}`). The sandbox defines `params` and `environmentVariables` as globals.
 * The code is read by `scanCode` of @weft/catalog, as the deploy check reads it.
 */
export function rewriteCode(code: string, scope: ReferenceScope): RewrittenCode {
  const params: Record<string, unknown> = {};
  const envKeys = new Set<string>();
  const unknownBlocks = new Set<string>();
  const unknownBlocksInStrings = new Set<string>();
  const out = scanCode(code, (m, place) => {
    const read = readToken(m, scope);
    if (!read.found) {
      if (m[1] !== undefined && looksLikeBlockReference(m)) (place === 'code' ? unknownBlocks : unknownBlocksInStrings).add(m[0]);
      return undefined;
    }
    const isEnv = m[3] !== undefined;
    const access = isEnv ? `environmentVariables[${JSON.stringify(m[3])}]` : `params[${JSON.stringify(m[0])}]`;
    const textAccess = isEnv ? access : `params[${JSON.stringify(`${m[0]}:text`)}]`;
    if (!isEnv) params[m[0]] = read.value ?? null;
    else envKeys.add(m[3] as string);
    if (place === 'code') return access;
    if (!isEnv) params[`${m[0]}:text`] = asText(read.value);
    return place === '`' ? `\${${textAccess}}` : `${place} + ${textAccess} + ${place}`;
  });
  return { code: out, params, envKeys: [...envKeys], unknownBlocks: [...unknownBlocks], unknownBlocksInStrings: [...unknownBlocksInStrings] };
}

/** Only the named environment variables (what one piece of code reads), so no other secret travels. */
export function pickEnv(envVars: Record<string, string>, keys: Iterable<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) if (Object.prototype.hasOwnProperty.call(envVars, k)) out[k] = envVars[k] as string;
  return out;
}

/**
 * Resolves references inside JSON text (a Response block's data in editor mode): outside strings a
 * value is written as JSON, inside a string as escaped text; the result is parsed when it is JSON.
 */
export function resolveJsonText(text: string, scope: ReferenceScope): unknown {
  const trimmed = text.trim();
  const single = tokenAt().exec(trimmed);
  if (single && single[0].length === trimmed.length) return resolveText(text, scope);
  let out = '';
  let inString = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '<' || ch === '{') {
      const re = tokenAt();
      re.lastIndex = i;
      const m = re.exec(text);
      if (m) {
        const read = readToken(m, scope);
        if (read.found) {
          out += inString ? JSON.stringify(asText(read.value)).slice(1, -1) : (JSON.stringify(read.value) ?? 'null');
          i += m[0].length;
          continue;
        }
      }
    }
    out += ch;
    i += 1;
    if (inString && ch === '\\') {
      out += text[i] ?? '';
      i += 1;
    } else if (ch === '"') inString = !inString;
  }
  try {
    return JSON.parse(out) as unknown;
  } catch {
    return out;
  }
}
