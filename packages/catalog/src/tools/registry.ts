import type { ToolConfig } from '../types.js';
import { chatTools } from './chat.tools.js';
import { httpTools } from './http.tools.js';

const TOOLS: readonly ToolConfig[] = [...chatTools, ...httpTools];

const BY_ID: ReadonlyMap<string, ToolConfig> = new Map(TOOLS.map((t) => [t.id, t]));

/** The tool with this id, if the catalogue knows it. */
export function getTool(id: string): ToolConfig | undefined {
  return BY_ID.get(id);
}

/** Every tool, sorted by id. */
export function listTools(): ToolConfig[] {
  return [...TOOLS].sort((a, b) => a.id.localeCompare(b.id));
}
