/**
 * Pure readers of block values shared by the engine's executors: condition lists, tables,
 * container settings and the retry setting.
 */
import { DEFAULT_BLOCK_RETRIES, MAX_BLOCK_RETRIES, RETRIES_FIELD } from '@weft/catalog';
import { typedVariable } from './references.js';
import type { RunnableBlock } from './types.js';

/** One branch of a condition block (`title` 'if' | 'else if' | 'else'); its edge leaves from `condition-<id>`. */
export interface ConditionBranch {
  id: string;
  title: string;
  value: string;
}

/** A condition block's `conditions` value: a JSON array or its text. */
export function parseConditions(value: unknown): ConditionBranch[] {
  let list: unknown = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value) as unknown;
    } catch {
      throw new Error('Conditions are not a valid JSON array');
    }
  }
  if (!Array.isArray(list)) throw new Error('Conditions are not a valid JSON array');
  return list.map((item: unknown, i) => {
    const entry = item !== null && typeof item === 'object' ? (item as Record<string, unknown>) : {};
    const id = typeof entry.id === 'string' || typeof entry.id === 'number' ? String(entry.id) : String(i);
    const title = typeof entry.title === 'string' ? entry.title.trim().toLowerCase() : i === 0 ? 'if' : 'else if';
    const raw = entry.value;
    return { id, title, value: typeof raw === 'string' ? raw : raw === undefined || raw === null ? '' : JSON.stringify(raw) };
  });
}

/**
 * An expression as the condition program wraps it: without the semicolons and whitespace it ends
 * with (`<agent.content> === "yes";` reads as a statement, as it would after `return`, not as a
 * syntax error inside the parentheses).
 */
function conditionBody(expression: string): string {
  let end = expression.length;
  while (end > 0 && (expression[end - 1] === ';' || /\s/.test(expression[end - 1] as string))) end -= 1;
  return expression.slice(0, end);
}

/**
 * The sandbox program that evaluates the expressions in order and returns the index of the first
 * truthy one, or -1. Each expression is a JavaScript expression (references already rewritten).
 */
export function conditionProgram(expressions: readonly string[]): string {
  const fns = expressions.map(conditionBody).map((e) => (e.trim() === '' ? '() => false' : `() => (\n${e}\n)`));
  return `const __conditions = [${fns.join(', ')}];\nfor (let i = 0; i < __conditions.length; i++) { if (await __conditions[i]()) return i; }\nreturn -1;`;
}

/**
 * Which of `conditionProgram`'s expressions a line of that program (as the sandbox counts lines of
 * the code it was given) falls in, the line closing it included (a syntax error may point there).
 */
export function conditionAtLine(expressions: readonly string[], line: number): number | undefined {
  // The line the program's text has reached: `const __conditions = [() => (` is line 1.
  let at = 1;
  for (let i = 0; i < expressions.length; i++) {
    const e = conditionBody(expressions[i] as string);
    // An empty expression is `() => false` on the line already reached.
    if (e.trim() === '') continue;
    const first = at + 1;
    const last = first + e.split('\n').length - 1;
    if (line >= first && line <= last + 1) return i;
    at = last + 1;
  }
  return undefined;
}

/** A table value (`{id, cells: {Key, Value}}` rows, 000 §3) as a key → value map; empty keys dropped. */
export function tableToRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(value)) {
    if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
    }
    return out;
  }
  for (const row of value as unknown[]) {
    if (row === null || typeof row !== 'object') continue;
    const cells = (row as { cells?: Record<string, unknown> }).cells ?? {};
    const key = typeof cells.Key === 'string' ? cells.Key.trim() : '';
    if (key === '') continue;
    const v = cells.Value;
    out[key] = typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);
  }
  return out;
}

/** Most iterations of a loop and branches of a parallel (000 §5, §9: counts 1..50). */
export const MAX_CONTAINER_COUNT = 50;

/** Loop and parallel counts are clamped to 1..50, default 5 (000 §5, §9). */
export function clampCount(value: unknown, fallback = 5): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return fallback;
  return Math.max(1, Math.min(MAX_CONTAINER_COUNT, Math.trunc(n)));
}

/** A collection read as items: an array as it is, an object as its [key, value] entries. */
export function collectionItems(value: unknown): unknown[] | undefined {
  let v = value;
  if (typeof v === 'string') {
    const text = v.trim();
    if (text === '') return [];
    if (!text.startsWith('[') && !text.startsWith('{')) return undefined;
    try {
      v = JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  }
  if (Array.isArray(v)) return v;
  if (v !== null && typeof v === 'object') return Object.entries(v);
  if (v === undefined || v === null) return [];
  return undefined;
}

/** Default tries of a tool or model activity for transient failures. */
export const DEFAULT_MAX_ATTEMPTS = DEFAULT_BLOCK_RETRIES + 1;
/** Largest per-block retry setting (advanced mode). */
export const MAX_RETRIES = MAX_BLOCK_RETRIES;

/**
 * Tries a block's tool or model activities get: 3 by default; in advanced mode the block's
 * `retries` value (sub-block or `data.retries`, 0-5 retries after the first try) decides.
 * `value` is the sub-block's value as read (as written unless given resolved).
 */
export function maxAttemptsOf(block: RunnableBlock, value: unknown = block.subBlocks[RETRIES_FIELD.id]?.value): number {
  if (!block.advancedMode) return DEFAULT_MAX_ATTEMPTS;
  const raw = value ?? block.data?.retries;
  if (raw === undefined || raw === null || raw === '') return DEFAULT_MAX_ATTEMPTS;
  const n = Number(raw);
  if (!Number.isFinite(n)) return DEFAULT_MAX_ATTEMPTS;
  return Math.max(0, Math.min(MAX_RETRIES, Math.trunc(n))) + 1;
}

/**
 * A builder-mode Response structure (input-format rows `{name, type, value}`) as an object; a text
 * value is read by its row's type (number, boolean, object, array) as variables are.
 */
export function structureToObject(rows: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!Array.isArray(rows)) return out;
  for (const row of rows as unknown[]) {
    if (row === null || typeof row !== 'object') continue;
    const r = row as Record<string, unknown>;
    const name = typeof r.name === 'string' ? r.name.trim() : '';
    if (name === '') continue;
    const type = typeof r.type === 'string' ? r.type : 'string';
    out[name] = typeof r.value === 'string' && type !== 'string' && type !== 'plain' ? typedVariable(type, r.value) : r.value;
  }
  return out;
}
