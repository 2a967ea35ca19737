import type { ToolConfig } from '../types.js';
import { defineTool, need } from './define.js';

const id = need('string', 'llm', 'Identifier for the memory');

/** Agent memory tools over the internal memory route; workflowId comes from the execution context. */
export const memoryTools: ToolConfig[] = [
  defineTool({
    id: 'memory_add',
    name: 'Add Memory',
    description: 'Add a new memory to the database or append to existing memory with the same ID',
    params: {
      id,
      role: need('string', 'llm', 'Role for agent memory (user, assistant, or system)'),
      content: need('string', 'llm', 'Content for agent memory'),
    },
    request: { method: 'POST', url: '/api/memory' },
  }),
  defineTool({ id: 'memory_get', name: 'Get Memory', description: 'Retrieve a specific memory by its ID', params: { id }, request: { method: 'GET', url: '/api/memory/{id}?workflowId={workflowId}' } }),
  defineTool({ id: 'memory_get_all', name: 'Get All Memories', description: 'Retrieve all memories from the database', params: {}, request: { method: 'GET', url: '/api/memory?workflowId={workflowId}' } }),
  defineTool({ id: 'memory_delete', name: 'Delete Memory', description: 'Delete a specific memory by its ID', params: { id }, request: { method: 'DELETE', url: '/api/memory/{id}?workflowId={workflowId}' } }),
];
