import { blockToolCall, getBlock, getTool, RETRIES_FIELD, type LoopTool, type ToolParam, type UsageControl } from '@weft/catalog';

/**
 * One entry of an agent's `tools` field (the tool-input value):
 * - a tool block: `{type: '<block type>', title?, operation?, toolId?, params: {…}, usageControl?}` —
 *   the tool is `toolId`, else the block's tool selector over its params, else its only tool;
 * - a custom tool: `{type: 'custom-tool', id | customToolId, title?, schema: {function: {name, description, parameters}} | {name, …}, params?, usageControl?}`,
 *   run as `custom_<id>` by the tool runtime.
 */
export interface AgentToolEntry {
  type?: unknown;
  title?: unknown;
  operation?: unknown;
  toolId?: unknown;
  id?: unknown;
  customToolId?: unknown;
  params?: unknown;
  usageControl?: unknown;
  schema?: unknown;
}

export class AgentToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AgentToolError';
  }
}

function record(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function str(v: unknown): string {
  return typeof v === 'string' ? v.trim() : '';
}

function usageOf(v: unknown): UsageControl {
  return v === 'force' || v === 'none' ? v : 'auto';
}

/** Function names providers accept: letters, digits, _ and -, at most 64. */
export function functionName(name: string): string {
  const clean = name.replace(/[^a-zA-Z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  return (clean || 'tool').slice(0, 64);
}

function jsonType(p: ToolParam): Record<string, unknown> {
  switch (p.type) {
    case 'string':
    case 'number':
    case 'boolean':
      return { type: p.type };
    case 'array':
      return { type: 'array', items: {} };
    case 'json':
    case 'object':
      return { type: 'object' };
    default: {
      const unreachable: never = p.type;
      return { type: String(unreachable) };
    }
  }
}

function blank(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

/**
 * A tool block as a tool: its form values mapped by the catalogue's `blockToolCall`, as the engine maps
 * the block when it runs on its own (the retry setting, the run's and no parameter, left out there too);
 * the model fills the user-or-llm parameters the user left empty.
 */
function blockTool(entry: AgentToolEntry, type: string): LoopTool {
  const block = getBlock(type);
  if (!block) throw new AgentToolError(`Unknown tool block type: ${type}`);
  const { [RETRIES_FIELD.id]: _retries, ...formValues }: Record<string, unknown> = { ...record(entry.params), ...(str(entry.operation) ? { operation: str(entry.operation) } : {}) };
  let toolId: string | undefined;
  let userParams: Record<string, unknown>;
  try {
    ({ toolId, params: userParams } = blockToolCall(block, formValues, str(entry.toolId)));
  } catch (err) {
    throw new AgentToolError(err instanceof Error ? err.message : String(err));
  }
  const tool = toolId ? getTool(toolId) : undefined;
  if (!tool) throw new AgentToolError(`Tool not found: ${toolId || type}`);
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, p] of Object.entries(tool.params)) {
    if (p.visibility !== 'user-or-llm' || !blank(userParams[name])) continue;
    properties[name] = { ...jsonType(p), description: p.description };
    if (p.required) required.push(name);
  }
  return {
    definition: { name: functionName(tool.id), description: tool.description, parameters: { type: 'object', properties, required } },
    usageControl: usageOf(entry.usageControl),
    toolId: tool.id,
    userParams,
  };
}

/** A workspace custom tool: its own JSON schema, run as `custom_<id>`. */
function customTool(entry: AgentToolEntry): LoopTool {
  const id = str(entry.customToolId) || str(entry.id);
  if (!id) throw new AgentToolError(`Custom tool ${str(entry.title) || ''} has no id`.replace('  ', ' '));
  const schema = record(entry.schema);
  const fn = Object.keys(record(schema.function)).length > 0 ? record(schema.function) : schema;
  const name = functionName(str(fn.name) || str(entry.title) || id);
  const parameters = Object.keys(record(fn.parameters)).length > 0 ? record(fn.parameters) : { type: 'object', properties: {} };
  return {
    definition: { name, description: str(fn.description) || str(entry.title) || name, parameters },
    usageControl: usageOf(entry.usageControl),
    toolId: id.startsWith('custom_') ? id : `custom_${id}`,
    userParams: record(entry.params),
  };
}

/** The agent's tools field → the loop's tools (names made unique). */
export function agentTools(value: unknown): LoopTool[] {
  let entries: unknown = value;
  if (typeof value === 'string') {
    if (value.trim() === '') return [];
    try {
      entries = JSON.parse(value);
    } catch {
      throw new AgentToolError('Invalid tools: not a JSON array');
    }
  }
  if (entries === undefined || entries === null) return [];
  if (!Array.isArray(entries)) throw new AgentToolError('Invalid tools: not a JSON array');
  const tools = entries.map((raw: unknown) => {
    const entry: AgentToolEntry = record(raw);
    const type = str(entry.type);
    return type === 'custom-tool' || (!type && entry.schema) ? customTool(entry) : blockTool(entry, type);
  });
  const used = new Set<string>();
  for (const t of tools) {
    let name = t.definition.name;
    for (let i = 2; used.has(name); i++) name = `${t.definition.name.slice(0, 60)}_${i}`;
    used.add(name);
    t.definition = { ...t.definition, name };
  }
  return tools;
}
