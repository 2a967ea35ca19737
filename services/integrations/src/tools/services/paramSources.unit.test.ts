import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { blockToolCall, conditionHolds, getTool, listBlocks, listTools, RETRIES_FIELD, S3_URL_EXAMPLE, visibleSubBlocks, type BlockConfig, type ConditionValue, type SubBlockConfig } from '@weft/catalog';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServiceTool } from '../serviceTool.js';

/**
 * The guard against form values that never reach their tool: for every block the runner runs as a
 * tool call, every form field, in every form state that shows it, must change some parameter of the
 * tool the block then calls — through the block's own mapping (`blockToolCall`, as the runner) — or
 * be listed below with its reason. And every parameter a service tool's code reads must be one its
 * catalogue tool declares, so code and catalogue name it alike.
 */

/**
 * An S3 object address in the only form spec 001 §5 accepts: the spec message's own placeholder
 * (S3_URL_EXAMPLE), a value to map, never a request — this file makes none (fetch is refused below).
 */
const S3_OBJECT_URL = S3_URL_EXAMPLE;

beforeAll(() => {
  vi.stubGlobal('fetch', () => Promise.reject(new Error('paramSources makes no request')));
});
afterAll(() => {
  vi.unstubAllGlobals();
});

/** Block types the runner runs with code of its own, not as a catalogue tool call (services/runner blockKind). */
const NOT_TOOL_CALLS: Readonly<Record<string, string>> = {
  starter: 'control block', loop: 'control block', parallel: 'control block', condition: 'control block', function: 'control block',
  response: 'control block', workflow: 'control block',
  agent: 'model block', router: 'model block', evaluator: 'model block', translate: 'model block', vision: 'model block',
  thinking: 'model block', image_generator: 'model block', embeddings: 'model block', huggingface: 'model block',
};

/** Form fields that reach no parameter of one tool on purpose, each with its reason (`block.field (tool)`). */
const NOT_PARAMS: Readonly<Record<string, string>> = {
  'discord.serverId (discord_get_messages)': 'spec 001 §5 asks the server id for get messages too (the block check); Discord reads a channel\'s messages by the channel id alone',
};

/** Values a block's mapping needs before it maps anything (it refuses the call without them). */
const BASE_VALUES: Readonly<Record<string, Record<string, unknown>>> = {
  s3: { s3Uri: S3_OBJECT_URL },
};

/** Values to try in a field: its options, a number in its range, a switch both ways, text of several shapes. */
function samples(field: SubBlockConfig): unknown[] {
  const options = (field.options ?? []).map((o) => o.id).filter((id) => id !== field.defaultValue);
  switch (field.type) {
    case 'switch':
      return [true, false];
    case 'dropdown':
    case 'combobox':
      return [...options, 'sample-7'];
    case 'multi-select':
    case 'checkbox-list':
      return [(field.options ?? []).map((o) => o.id), (field.options ?? []).slice(0, 1).map((o) => o.id)];
    case 'slider':
    case 'number': {
      const min = field.min ?? 0;
      const max = field.max ?? min + 10;
      return [Math.min(max, min + (field.integer === false ? 0.3 : 3)), max];
    }
    case 'file-upload':
      return [[{ name: 'a.pdf', type: 'application/pdf', size: 1, url: 'data:application/pdf;base64,JVBE' }], { name: 'a.pdf', type: 'application/pdf', size: 1, url: 'data:application/pdf;base64,JVBE' }];
    case 'table':
      return [[{ id: 'r1', cells: { Key: 'k', Value: 'v' } }]];
    default:
      return ['7', 'sample text', '{"a":1}', '[{"a":1}]', 'https://weft.example/a.pdf', S3_OBJECT_URL, 'sample@weft.example', '2025-05-24 11:00 AM -0400'];
  }
}

/** The values a field of a condition can take: its options, both switch states, the values conditions name. */
function controlValues(block: BlockConfig, id: string): ConditionValue[] {
  const field = block.subBlocks.find((s) => s.id === id);
  const named = block.subBlocks.flatMap((s) => [s.condition, s.condition?.and]).filter((c) => c?.field === id).flatMap((c) => (Array.isArray(c?.value) ? c.value : [c?.value]));
  const own = field?.type === 'switch' ? [true, false] : (field?.options ?? []).map((o) => o.id);
  return [...new Set([...own, ...named].filter((v): v is ConditionValue => v !== undefined))];
}

/** Every form state worth checking: each combination of the values of the fields that conditions test. */
function formStates(block: BlockConfig): Array<Record<string, unknown>> {
  const controls = [...new Set(block.subBlocks.flatMap((s) => [s.condition?.field, s.condition?.and?.field]).filter((f): f is string => f !== undefined))];
  let states: Array<Record<string, unknown>> = [{}];
  for (const c of controls) states = states.flatMap((s) => controlValues(block, c).map((v) => ({ ...s, [c]: v })));
  // A new block holds its fields' defaults (addBlock stores them), so a field must reach its tool beside them.
  const defaults = Object.fromEntries(block.subBlocks.filter((s) => s.defaultValue !== undefined).map((s) => [s.id, s.defaultValue]));
  return states.map((s) => ({ ...defaults, ...BASE_VALUES[block.type], ...s }));
}

function callOf(block: BlockConfig, values: Record<string, unknown>): { toolId: string | undefined; params: Record<string, unknown> } | undefined {
  try {
    return blockToolCall(block, values);
  } catch {
    return undefined;
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The tool parameters a field's value changes in one form state (empty when it reaches none). */
function reached(block: BlockConfig, state: Record<string, unknown>, field: SubBlockConfig): Set<string> {
  const without = { ...state };
  delete without[field.id];
  const out = new Set<string>();
  for (const sample of samples(field)) {
    const before = callOf(block, without);
    const after = callOf(block, { ...state, [field.id]: sample });
    const tool = after?.toolId ? getTool(after.toolId) : undefined;
    // A mapping that refuses the call without this field (S3's object URL) is fed by it.
    if (!after || !tool || (before !== undefined && before.toolId !== after.toolId)) continue;
    for (const name of Object.keys(tool.params)) if (!same(before?.params[name], after.params[name])) out.add(name);
    // The execution layer turns a credential into the tool's access token.
    if (field.id === 'credential' && 'accessToken' in tool.params && !same(before?.params.credential, after.params.credential)) out.add('accessToken');
  }
  return out;
}

const toolBlocks = listBlocks().filter((b) => !Object.hasOwn(NOT_TOOL_CALLS, b.type) && b.category !== 'triggers' && b.tools.access.length > 0);

describe('every form field reaches its tool', () => {
  it.each(toolBlocks.map((b) => [b.type, b] as const))('%s', (_type, block) => {
    const missing = new Set<string>();
    for (const state of formStates(block)) {
      const fields = [...visibleSubBlocks(block, state, 'basic'), ...visibleSubBlocks(block, state, 'advanced')];
      for (const field of new Set(fields)) {
        // The operation picks the tool; the retry setting is the run's (the runner takes it out of the call).
        if (field.id === 'operation' || field.id === RETRIES_FIELD.id) continue;
        if (field.condition && !conditionHolds(block, field.condition, state)) continue;
        const where = `${block.type}.${field.id} (${callOf(block, state)?.toolId ?? '?'})`;
        if (!Object.hasOwn(NOT_PARAMS, where) && reached(block, state, field).size === 0) missing.add(where);
      }
    }
    expect([...missing]).toEqual([]);
  });
});

const here = fileURLToPath(new URL('.', import.meta.url));

/** Service tool code files (`<family>/<family>.tools.ts` and the helpers beside them), by family directory. */
function familySources(): Array<{ family: string; files: Array<{ path: string; text: string }> }> {
  return readdirSync(here, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => ({
      family: e.name,
      files: readdirSync(join(here, e.name))
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
        .map((f) => ({ path: join(here, e.name, f), text: readFileSync(join(here, e.name, f), 'utf8') })),
    }));
}

/** The names a tool's code reads from its parameters: `p.name`, `p['name']`, `requireText(p, 'name', …)`. */
function readNames(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/\bp\.([A-Za-z_][A-Za-z0-9_]*)/g)) out.add(m[1]!);
  for (const m of text.matchAll(/\bp\[['"]([A-Za-z_][A-Za-z0-9_]*)['"]\]/g)) out.add(m[1]!);
  for (const m of text.matchAll(/\(p, '([A-Za-z_][A-Za-z0-9_]*)'/g)) out.add(m[1]!);
  return out;
}

/** Declared parameters a family's code reads under another name or builds from others, each with its reason (`tool.param`). */
const UNREAD_PARAMS: Readonly<Record<string, string>> = {
  'huggingface_chat.stream': 'the tool answers whole (stream false); a streamed Hugging Face answer is the model layer\'s (the block runs there)',
};

describe('service tool code and its catalogue parameters name them alike', async () => {
  const families = await Promise.all(
    familySources().map(async ({ family, files }) => {
      const tools = (await Promise.all(files.map((f) => import(f.path) as Promise<Record<string, unknown>>)))
        .flatMap((m) => Object.values(m))
        .filter((v): v is ServiceTool[] => Array.isArray(v) && v.every((t) => typeof t === 'object' && t !== null && 'id' in t && 'execute' in t))
        .flat();
      // Parameters are read as `p` in the tool files; helpers beside them (gmail's mime.ts) name other things `p`.
      const toolText = files.filter((f) => f.path.endsWith('.tools.ts')).map((f) => f.text).join('\n');
      return { family, tools: [...new Set(tools.map((t) => t.id))], text: files.map((f) => f.text).join('\n'), toolText };
    }),
  );

  it.each(families.filter((f) => f.tools.length > 0).map((f) => [f.family, f] as const))('%s reads only declared parameters, and reads each it declares', (_family, { tools, text, toolText }) => {
    const declared = new Set(tools.flatMap((id) => Object.keys(getTool(id)?.params ?? {})));
    const reads = readNames(toolText);
    expect([...reads].filter((n) => !declared.has(n)), 'read but declared by none of the family\'s tools').toEqual([]);
    const unread = tools.flatMap((id) => Object.keys(getTool(id)?.params ?? {}).filter((n) => !reads.has(n) && !new RegExp(`['.]${n}\\b`).test(text)).map((n) => `${id}.${n}`));
    expect(unread.filter((k) => !Object.hasOwn(UNREAD_PARAMS, k)), 'declared but never read').toEqual([]);
  });

  it('checks every external catalogue tool', () => {
    const checked = new Set(families.flatMap((f) => f.tools));
    expect(listTools().filter((t) => !t.request.isInternalRoute && !checked.has(t.id)).map((t) => t.id).sort()).toEqual(['browser_use_run_task', 'exa_research', 'firecrawl_crawl', 'http_request']);
  });
});
