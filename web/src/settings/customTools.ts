import { ApiError, statusTextOf, type CustomTool } from '../api';

/** Why a custom tool cannot be saved, or null: a title, an object schema with a function name, and code (spec 000 §5). */
export function customToolProblem(title: string, schemaText: string, code: string): string | null {
  if (!title.trim()) return 'Enter a title';
  let schema: unknown;
  try {
    schema = JSON.parse(schemaText);
  } catch (e) {
    return `Schema is not valid JSON: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 'Invalid schema format';
  const fn = (schema as { function?: unknown }).function;
  if (typeof fn !== 'object' || fn === null) return 'Invalid schema format';
  const { name, parameters } = fn as { name?: unknown; parameters?: unknown };
  if (typeof name !== 'string' || !/^[a-zA-Z_][\w-]*$/.test(name)) return 'The schema needs function.name (letters, digits, _ and -)';
  if (parameters !== undefined && (typeof parameters !== 'object' || parameters === null || (parameters as { type?: unknown }).type !== 'object')) return 'Invalid schema format';
  if (!code.trim()) return 'No code provided for tool execution';
  return null;
}

/** The starting schema of a new custom tool. */
export const NEW_TOOL_SCHEMA = JSON.stringify(
  { type: 'function', function: { name: 'my_tool', description: 'What the tool does', parameters: { type: 'object', properties: { input: { type: 'string', description: 'The input' } }, required: ['input'] } } },
  null,
  2,
);

/** The custom tools of a GET /api/tools/custom answer; 'Invalid response format' when it is not a list (spec 000 §8). */
export function readCustomTools(data: unknown): CustomTool[] {
  if (!Array.isArray(data)) throw new Error('Invalid response format');
  return data
    .filter((t): t is CustomTool => typeof t === 'object' && t !== null && typeof t.id === 'string' && typeof t.title === 'string' && typeof t.schema === 'object' && t.schema !== null)
    .map((t) => ({ ...t, code: typeof t.code === 'string' ? t.code : '' }));
}

/** What a failed custom tool load tells the user (spec 000 §8): 'Invalid response format', else 'Failed to load custom tools: {statusText}'. */
export function customToolsLoadMessage(error: unknown): string {
  if (error instanceof Error && error.message === 'Invalid response format') return 'Invalid response format';
  return `Failed to load custom tools: ${statusTextOf(error)}`;
}

/** A custom tool as its editor holds it: the schema as typed JSON; `id` null until saved once. */
export interface ToolDraft {
  id: string | null;
  title: string;
  schema: string;
  code: string;
}

/** The editor's start for a new tool. */
/**
 * The tool code box's placeholder: a comment, so that it reads as a hint, not as code already there
 * (saving an empty box still says 'No code provided for tool execution').
 */
export const TOOL_CODE_PLACEHOLDER = "// Return a value from the tool's parameters, e.g. return { echo: input };";

export const newToolDraft = (): ToolDraft => ({ id: null, title: '', schema: NEW_TOOL_SCHEMA, code: '' });

/**
 * The tool to save from its editor's draft, or why it cannot be saved (`customToolProblem`). A new
 * tool gets a `custom_` id (the prefix that names a custom tool to the tool layer, spec 000) from `now`.
 */
export function toolFromDraft(draft: ToolDraft, now = Date.now()): { tool: CustomTool } | { problem: string } {
  const problem = customToolProblem(draft.title, draft.schema, draft.code);
  if (problem) return { problem };
  return { tool: { id: draft.id ?? `custom_${now.toString(36)}`, title: draft.title.trim(), schema: JSON.parse(draft.schema) as CustomTool['schema'], code: draft.code } };
}

/** What a refused or failed custom tool save tells the user (spec 000 §8): 'Failed to sync custom tools: {statusText}. {server error}'. */
export function customToolsSyncMessage(error: Error): string {
  return `Failed to sync custom tools: ${error instanceof ApiError ? error.statusText : 'Error'}. ${error.message}`;
}
