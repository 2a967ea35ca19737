import { isBlank, text } from '../paramValues.js';

/** Memory block: operation; id for add, get and delete; role and content for add — under 'Memory Block Error'. */
export function validateMemory(params: Record<string, unknown>): string | undefined {
  const errors: string[] = [];
  const op = text(params.operation);
  if (op === '') errors.push('Operation is required');
  if ((op === 'add' || op === 'get' || op === 'delete') && isBlank(params.id)) errors.push(`Memory ID is required for ${op} operation`);
  if (op === 'add') {
    if (isBlank(params.role)) errors.push('Role is required for agent memory');
    if (isBlank(params.content)) errors.push('Content is required for agent memory');
  }
  return errors.length > 0 ? `Memory Block Error: ${errors.join(', ')}` : undefined;
}

/** Memory tools: a workflowId from the execution context; add also needs role and content. */
export function validateMemoryTool(
  toolId: 'memory_add' | 'memory_get' | 'memory_get_all' | 'memory_delete',
  params: Record<string, unknown>,
  context: { workflowId?: string },
): string | undefined {
  if (isBlank(context.workflowId)) return 'workflowId is required and must be provided in execution context';
  if (toolId === 'memory_add' && (isBlank(params.role) || isBlank(params.content))) return 'Role and content are required for agent memory';
  return undefined;
}
