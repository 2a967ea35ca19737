import type { ModelMessage, ModelResponseFormat } from '@weft/contracts';

/** A parameter as trimmed text ('' for nothing); objects become JSON. */
export function text(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** A parameter as a finite number, or undefined. */
export function num(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** A JSON value given as text or as a value already. */
export function jsonValue(v: unknown): { ok: true; value: unknown } | { ok: false; error: string } {
  if (typeof v !== 'string') return { ok: true, value: v };
  if (v.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(v) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

const ROLES = new Set(['user', 'assistant', 'system']);

/**
 * Conversation memories (a memory block's output) → messages: entries `{role, content}` (a "get"
 * answers one memory's messages) or stored memory rows whose data holds them (a "get all" answers
 * `[{key, data: [{role, content}, …]}]`; a single `{data: {role, content}}` too), also nested as
 * `{memories: […]}`; anything else is ignored.
 */
export function memoryMessages(v: unknown): ModelMessage[] {
  const parsed = jsonValue(v);
  let list: unknown = parsed.ok ? parsed.value : undefined;
  if (list && typeof list === 'object' && !Array.isArray(list) && 'memories' in list) list = (list as { memories: unknown }).memories;
  if (!Array.isArray(list)) return [];
  const out: ModelMessage[] = [];
  for (const item of list as unknown[]) {
    if (Array.isArray(item)) {
      out.push(...memoryMessages(item));
      continue;
    }
    if (typeof item !== 'object' || item === null) continue;
    if ('data' in item && Array.isArray(item.data)) {
      out.push(...memoryMessages(item.data));
      continue;
    }
    const source = 'data' in item && typeof item.data === 'object' && item.data !== null ? item.data : item;
    const role = 'role' in source ? source.role : undefined;
    const content = 'content' in source ? source.content : undefined;
    if (typeof role !== 'string' || !ROLES.has(role) || content === undefined || content === null) continue;
    const body = typeof content === 'string' ? content : JSON.stringify(content);
    out.push(role === 'assistant' ? { role: 'assistant', content: body } : { role: role as 'user' | 'system', content: body });
  }
  return out;
}

/** The agent's response format: a JSON schema, or `{name?, schema, strict?}`. */
export function responseFormatOf(v: unknown): { ok: true; value?: ModelResponseFormat } | { ok: false; error: string } {
  const parsed = jsonValue(v);
  if (!parsed.ok) return { ok: false, error: `Invalid response format: ${parsed.error}` };
  const value = parsed.value;
  if (value === undefined || value === null || value === '') return { ok: true };
  if (typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: 'Invalid response format: expected a JSON schema object' };
  const obj = value as Record<string, unknown>;
  if (typeof obj.schema === 'object' && obj.schema !== null && !Array.isArray(obj.schema)) {
    return {
      ok: true,
      value: {
        schema: obj.schema as Record<string, unknown>,
        ...(typeof obj.name === 'string' ? { name: obj.name } : {}),
        ...(typeof obj.strict === 'boolean' ? { strict: obj.strict } : {}),
      },
    };
  }
  return { ok: true, value: { schema: obj } };
}

/** The parsed JSON object of a model's answer, if it is one (fenced code blocks allowed). */
export function parseObject(content: string): Record<string, unknown> | undefined {
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/.exec(content.trim());
  try {
    const v: unknown = JSON.parse(fenced?.[1] ?? content);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
