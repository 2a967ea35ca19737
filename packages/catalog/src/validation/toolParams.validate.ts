import { getTool } from '../tools/registry.js';
import type { ValidationResult } from '../types.js';

/** Spec 000 §5: every required user-or-llm parameter must be present before a tool runs. */
export function validateToolParams(toolId: string, params: Record<string, unknown>): ValidationResult {
  const tool = getTool(toolId);
  if (!tool) return { success: false, error: `Tool not found: ${toolId}` };
  for (const [name, param] of Object.entries(tool.params)) {
    if (!param.required || param.visibility !== 'user-or-llm') continue;
    const value = params[name];
    if (value === undefined || value === null || value === '') {
      return { success: false, error: `Parameter "${name}" is required for ${tool.id} but was not provided.` };
    }
  }
  return { success: true };
}
