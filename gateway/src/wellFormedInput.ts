import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type RequestHandler } from 'express';
import { z } from 'zod';
import { AppError } from '@weft/platform';
import { MAX_NESTING_DEPTH } from '@weft/workflow';
import type { ApiRoute } from './routeTable.js';

/**
 * How deeply a request body may nest objects and arrays. A workflow's state is about a dozen levels
 * deep (blocks → subBlocks → value → a table or a schema); deeper bodies overflowed JSON.stringify
 * and the run's records downstream (a 500, or a run that was lost). The same bound as values made
 * from a body (a YAML import: `MAX_NESTING_DEPTH` of @weft/workflow).
 */
export const MAX_BODY_DEPTH = MAX_NESTING_DEPTH;

/** The 400 for body bytes sent as UTF-8 text (JSON, a form, text) that are not UTF-8. */
export const NOT_UTF8 = 'Request body is not valid UTF-8';

/** A lone UTF-16 surrogate: with the `u` flag a well-formed pair reads as one code point and does not match. */
const LONE_SURROGATE = /\p{Cs}/u;

type TextFault = 'nul' | 'surrogate';
type Fault = { kind: TextFault | 'depth'; path: Array<string | number>; key?: string };

function textFault(text: string): TextFault | undefined {
  if (text.includes('\0')) return 'nul';
  return LONE_SURROGATE.test(text) ? 'surrogate' : undefined;
}

/** The path from `root` to `target` (a container found at most MAX_BODY_DEPTH + 1 levels down), for the message only. */
function pathTo(root: object, target: object, depth = 1): Array<string | number> | undefined {
  if (root === target) return [];
  if (depth > MAX_BODY_DEPTH) return undefined;
  for (const [key, child] of Array.isArray(root) ? root.map((v: unknown, i) => [i, v] as const) : Object.entries(root)) {
    if (typeof child !== 'object' || child === null) continue;
    const below = pathTo(child, target, depth + 1);
    if (below) return [key, ...below];
  }
  return undefined;
}

/**
 * The first text in `root` that Postgres would refuse or silently change (the NUL character, a lone
 * surrogate, in a value or a key), or nesting deeper than MAX_BODY_DEPTH. Iterative, stops at the
 * first fault and keeps no paths (one is looked up once a fault is found): it runs on every request.
 */
function findFault(root: unknown): Fault | undefined {
  if (typeof root === 'string') {
    const kind = textFault(root);
    return kind ? { kind, path: [] } : undefined;
  }
  if (typeof root !== 'object' || root === null) return undefined;
  const at = (container: object, key?: string | number): Array<string | number> => [...(pathTo(root, container) ?? []), ...(key === undefined ? [] : [key])];
  const values: object[] = [root];
  const depths: number[] = [1];
  for (let value = values.pop(); value !== undefined; value = values.pop()) {
    const depth = depths.pop() ?? 1;
    if (depth > MAX_BODY_DEPTH) return { kind: 'depth', path: at(value) };
    const keys = Array.isArray(value) ? undefined : Object.keys(value);
    const count = Array.isArray(value) ? value.length : (keys?.length ?? 0);
    for (let i = 0; i < count; i++) {
      const key = keys ? (keys[i] ?? '') : i;
      if (keys) {
        const kind = textFault(String(key));
        if (kind) return { kind, path: at(value), key: String(key) };
      }
      const child: unknown = Reflect.get(value, key);
      if (typeof child === 'string') {
        const kind = textFault(child);
        if (kind) return { kind, path: at(value, key) };
      } else if (typeof child === 'object' && child !== null) {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return undefined;
}

const WHAT: Record<TextFault, string> = {
  nul: 'must not contain the NUL character (U+0000)',
  surrogate: 'must be well-formed text (it holds a lone UTF-16 surrogate)',
};

/** A path as the zod messages write it (`marketplaceData.x`, `tools.0.name`); a long one is cut after its first levels. */
function written(path: Array<string | number>): string {
  const shown = path.length > 6 ? [...path.slice(0, 6), '…'] : path;
  return shown.map(String).join('.');
}

/** The 400 message for `fault`, the field named by `subject` (the body, a query parameter). */
function describe(fault: Fault, subject: (path: Array<string | number>) => string): string {
  if (fault.kind === 'depth') return `Request body is nested too deeply at ${written(fault.path)} (at most ${MAX_BODY_DEPTH} levels of objects and arrays)`;
  if (fault.key !== undefined) return `The key ${JSON.stringify(fault.key)} in ${subject(fault.path)} ${WHAT[fault.kind]}`;
  return `${subject(fault.path)} ${WHAT[fault.kind]}`;
}

const bodyField = (path: Array<string | number>): string => (path.length === 0 ? 'Request body' : written(path));

/**
 * Throws the 400 naming the field when `body` (parsed JSON, a form, text) holds text that cannot be
 * stored as sent or nests deeper than MAX_BODY_DEPTH; the message for a webhook, which answers after
 * its signature check, is `bodyFault`.
 */
export function checkBody(body: unknown): void {
  const message = bodyFault(body);
  if (message) throw new AppError('validation', message);
}

/** What is wrong with `body` (see checkBody), or undefined. */
export function bodyFault(body: unknown): string | undefined {
  const fault = findFault(body);
  return fault ? describe(fault, bodyField) : undefined;
}

/** body-parser's `verify`: bytes read as UTF-8 (the parsers' default charset) must be UTF-8, never replaced with U+FFFD. */
export function verifyUtf8(_req: IncomingMessage, _res: ServerResponse, buf: Buffer, encoding: string): void {
  if (/^utf-?8$/i.test(encoding) && !isUtf8(buf)) throw new AppError('validation', NOT_UTF8);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/** Where the string opened at `start` (a `"`) ends: the offset of its closing quote, or the end of `bytes`. */
function stringEnd(bytes: Buffer, start: number): number {
  for (let at = bytes.indexOf(QUOTE, start + 1); at !== -1; at = bytes.indexOf(QUOTE, at + 1)) {
    let slashes = 0;
    while (bytes[at - 1 - slashes] === BACKSLASH) slashes += 1;
    if (slashes % 2 === 0) return at;
  }
  return bytes.length;
}

/**
 * The offset of the first `{` or `[` of JSON text (UTF-8 bytes) that opens a level past
 * MAX_BODY_DEPTH, or -1: one pass, strings skipped (a bracket inside one is text), nothing parsed.
 */
function tooDeepAt(bytes: Buffer): number {
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === QUOTE) i = stringEnd(bytes, i);
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth += 1;
      if (depth > MAX_BODY_DEPTH) return i;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth -= 1;
  }
  return -1;
}

/** How many levels of a path the depth message shows: `written` cuts after six, and says so past them. */
const SHOWN_LEVELS = 7;

/**
 * The path to the container opened at `end` (found by tooDeepAt), its first SHOWN_LEVELS steps only
 * (all the message shows): a second pass over the bytes before it, run only for a refusal.
 */
function pathAt(bytes: Buffer, end: number): Array<string | number> {
  const levels: Array<{ array: boolean; index: number; key: string; keyNext: boolean }> = [];
  let depth = 0;
  for (let i = 0; i < end; i++) {
    const c = bytes[i];
    if (c === QUOTE) {
      const close = stringEnd(bytes, i);
      const level = depth <= SHOWN_LEVELS ? levels[depth - 1] : undefined;
      if (level && !level.array && level.keyNext) {
        level.key = keyText(bytes.subarray(i, close + 1));
        level.keyNext = false;
      }
      i = close;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth += 1;
      if (depth <= SHOWN_LEVELS) levels[depth - 1] = { array: c === OPEN_BRACKET, index: 0, key: '', keyNext: c === OPEN_BRACE };
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth -= 1;
    else if (c === COMMA && depth >= 1 && depth <= SHOWN_LEVELS) {
      const level = levels[depth - 1];
      if (level?.array) level.index += 1;
      else if (level) level.keyNext = true;
    }
  }
  return levels.slice(0, Math.min(depth, SHOWN_LEVELS)).map((l) => (l.array ? l.index : l.key));
}

/** A key as written (`"a"`, `"\u00e9"`) read as text; one that does not read is shown as written. */
function keyText(quoted: Buffer): string {
  const text = quoted.toString('utf8');
  try {
    const key: unknown = JSON.parse(text);
    return typeof key === 'string' ? key : text;
  } catch {
    return text;
  }
}

/**
 * The depth refusal of JSON text, read from its UTF-8 bytes before it is parsed (a body millions of
 * levels deep within the 5 MB limit cost seconds of CPU to parse, only to be refused after), in the
 * words checkBody uses for a parsed body; undefined when it nests at most MAX_BODY_DEPTH levels.
 */
export function rawDepthFault(bytes: Buffer): string | undefined {
  const at = tooDeepAt(bytes);
  return at === -1 ? undefined : describe({ kind: 'depth', path: pathAt(bytes, at) }, bodyField);
}

/**
 * body-parser's `verify` for JSON: verifyUtf8, and the nesting counted in the bytes before they are
 * parsed (rawDepthFault). A body in another charset the parser reads (UTF-16) is counted as UTF-8 text.
 */
export function verifyJson(req: IncomingMessage, res: ServerResponse, buf: Buffer, encoding: string): void {
  verifyUtf8(req, res, buf, encoding);
  verifyDepth(buf, encoding);
}

function verifyDepth(buf: Buffer, encoding: string): void {
  const bytes = /^utf-?8$/i.test(encoding) ? buf : utf8Of(buf, encoding);
  const fault = bytes && rawDepthFault(bytes);
  if (fault) throw new AppError('validation', fault);
}

/**
 * body-parser's `verify` for text a route may read as JSON or as a form (a run's input):
 * verifyUtf8, and text that starts as JSON does (`{` or `[` after white space) counted as verifyJson
 * counts it. A form does not start so (`a=[[…` is a form and not counted).
 */
export function verifyTextBody(req: IncomingMessage, res: ServerResponse, buf: Buffer, encoding: string): void {
  verifyUtf8(req, res, buf, encoding);
  const first = buf.find((c) => c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) verifyDepth(buf, encoding);
}

/** How better-call (better-auth's request reader) tells a JSON body: `application/json`, `application/…+json`. */
const HANDLER_JSON = /^application\/([a-z0-9.+-]*\+)?json/i;
/** The other bodies it reads as text: forms and plain text. */
const HANDLER_TEXT = /^(application\/x-www-form-urlencoded|text\/plain)/i;

/**
 * For a handler that reads the raw request itself (better-auth, through better-call's node adapter):
 * a body it reads as text (JSON, a form, plain text) is read here first, refused as the app's parsers
 * refuse it — bytes that are not UTF-8 (a 400 naming the body, where the handler put U+FFFD in their
 * place), JSON nested past MAX_BODY_DEPTH (counted in the bytes) — and left as `req.body`, the text,
 * which the adapter sends on as it is. Other bodies (none, binary) are left unread for the handler.
 */
export function textBodyFirst(limit: string): RequestHandler {
  return express.text({
    limit,
    type: (req) => {
      const type = req.headers['content-type'] ?? '';
      return HANDLER_JSON.test(type) || HANDLER_TEXT.test(type);
    },
    verify: (req, res, buf, encoding) => (HANDLER_JSON.test(req.headers['content-type'] ?? '') ? verifyJson : verifyUtf8)(req, res, buf, encoding),
  });
}

/** `buf` in `encoding` as UTF-8 bytes, or undefined for a charset TextDecoder does not know (the parsed body is still checked). */
function utf8Of(buf: Buffer, encoding: string): Buffer | undefined {
  try {
    return Buffer.from(new TextDecoder(encoding).decode(buf), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The JSON body parser of the /api routes: bytes that are not UTF-8, nesting past MAX_BODY_DEPTH
 * (counted in the bytes, before parsing) and bodies checkBody refuses are a 400 naming the field.
 */
export function jsonBody(limit: string): RequestHandler {
  const parse = express.json({ limit, verify: verifyJson });
  return (req, res, next) => {
    parse(req, res, (err?: unknown) => {
      if (err) {
        next(err);
        return;
      }
      const fault = bodyFault(req.body);
      next(fault === undefined ? undefined : new AppError('validation', fault));
    });
  };
}

/**
 * The parameter an Express pattern (`/api/workflows/:id`) names at segment `index` of `segments`, if
 * it matches; '' for a segment a wildcard (`*rest`) takes, which names nothing the caller knows.
 */
function paramAt(pattern: string, segments: string[], index: number): string | undefined {
  const parts = pattern.split('/');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? '';
    if (part.includes('*')) return i <= index ? '' : undefined;
    const segment = segments[i];
    if (segment === undefined) return undefined;
    if (!part.startsWith(':') && part.toLowerCase() !== segment.toLowerCase()) return undefined;
  }
  return parts.length === segments.length ? parts[index]?.slice(1) : undefined;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // A malformed escape: Express answers it (a 400 naming the path) or the route does.
    return segment;
  }
}

/**
 * Before every /api route: refuses a path parameter (a decoded `%00`) or a query value or name that
 * holds the NUL character or a lone surrogate, with a 400 naming it; `routes` (read once the app is
 * built) name the parameter. Postgres refuses such text (a 500 before).
 */
export function wellFormedUrl(routes: () => readonly ApiRoute[]): RequestHandler {
  return (req, _res, next) => {
    const path = req.originalUrl.split('?')[0] ?? '';
    if (/%00/i.test(path)) {
      const segments = path.split('/');
      const index = segments.findIndex((s) => decoded(s).includes('\0'));
      if (index >= 0) {
        const name = routes()
          .filter((r) => r.method === 'ALL' || r.method === req.method || (req.method === 'HEAD' && r.method === 'GET'))
          .map((r) => paramAt(r.path, segments, index))
          .find((p) => p !== undefined);
        const subject = name ? `Path parameter "${name}"` : `The path segment "${segments[index]}"`;
        throw new AppError('validation', `${subject} ${WHAT.nul}`);
      }
    }
    const fault = findFault(req.query);
    if (fault) throw new AppError('validation', describe(fault, (p) => (p.length === 0 ? 'the query' : `Query parameter "${String(p[0])}"`)));
    next();
  };
}

/**
 * A record's keys for zod: `__proto__` is refused naming it (z.record drops it silently, and an
 * object read from a record would lose it), so no key the caller sent is lost.
 */
export function withoutProtoKey<S extends z.ZodType>(field: string, schema: S) {
  return z.preprocess((value, ctx) => {
    if (typeof value === 'object' && value !== null && Object.hasOwn(value, '__proto__')) {
      ctx.addIssue({ code: 'custom', message: `${field} must not have a key named "__proto__"`, input: value });
    }
    return value;
  }, schema);
}
