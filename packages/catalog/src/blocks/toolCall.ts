import type { BlockConfig } from '../types.js';

/** The tool a block runs and the parameters it sends. */
export interface BlockToolCall {
  toolId: string | undefined;
  params: Record<string, unknown>;
}

/**
 * The tool call a block makes from its form values: the block's tool selector (else its first tool)
 * and its form values with the block's params mapper laid over them, so a field the mapper does not
 * touch reaches the tool under its own id. The runner uses this (the agent's block tools map the same
 * way); the field-reach guard and the service tools' block tests go through it. Throws the selector's or
 * mapper's message (an unknown operation, a bad JSON field). `fixedToolId`, when not empty, is the tool
 * instead of the selector's choice (the selector is then not asked): an agent's tool card from an older
 * picker names its tool; the params are mapped all the same.
 */
export function blockToolCall(block: BlockConfig, values: Record<string, unknown>, fixedToolId?: string): BlockToolCall {
  const config = block.tools.config;
  const toolId = fixedToolId ? fixedToolId : config?.tool ? config.tool(values) : block.tools.access[0];
  const params = config?.params ? { ...values, ...config.params(values) } : values;
  return { toolId, params };
}
