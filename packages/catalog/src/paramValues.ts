import type { ToolSelector } from './types.js';

/** A parameter as trimmed text: strings trimmed, numbers and booleans printed, anything else empty. */
export function text(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/** Whether a parameter is missing or only whitespace. */
export function isBlank(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  return text(value) === '';
}

/** The first non-blank of several parameters, trimmed (selector value first, then the manual id). */
export function firstText(...values: unknown[]): string {
  for (const v of values) {
    const t = text(v);
    if (t !== '') return t;
  }
  return '';
}

/** A parameter as an integer, or `fallback` when empty or not numeric. */
export function toInt(value: unknown, fallback: number): number {
  const n = typeof value === 'number' ? Math.trunc(value) : Number.parseInt(text(value), 10);
  return Number.isFinite(n) ? n : fallback;
}

/** A number, or its text (a form field) read as a number; NaN for anything else (true, [1]). */
export function numberOf(value: unknown): number {
  return typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
}

/** Keeps `n` inside `[min, max]`. */
export function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}

/** Parses JSON text (non-strings pass through); answers the parse error's message on failure. */
export function parseJson(value: unknown): { ok: true; value: unknown } | { ok: false; error: string } {
  if (typeof value !== 'string') return { ok: true, value };
  try {
    const parsed: unknown = JSON.parse(value);
    return { ok: true, value: parsed };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/** 'true'/'false' strings become booleans; other values pass through. */
export function toBoolean(value: unknown): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

/** A comma separated list, trimmed, with empty entries dropped. */
export function commaList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(text).filter((s) => s !== '');
  return text(value).split(',').map((s) => s.trim()).filter((s) => s !== '');
}

/** Copies the entries whose value is not blank. */
export function withoutBlanks(params: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}

/** A tool selector over the `operation` parameter; an unknown operation throws `invalid(op)`. */
export function operationTool(map: Readonly<Record<string, string>>, invalid: (op: string) => string): ToolSelector {
  return (params) => {
    const op = text(params.operation);
    const tool = Object.hasOwn(map, op) ? map[op] : undefined;
    if (tool === undefined) throw new Error(invalid(op));
    return tool;
  };
}
