import { operationTool } from '../paramValues.js';
import type { BlockConfig } from '../types.js';
import { dropdown, longInput, operationField, shortInput, when } from './fields.js';

const TOOL_BY_OPERATION = { add: 'memory_add', get: 'memory_get', getAll: 'memory_get_all', delete: 'memory_delete' } as const;

/** Memory roles (§9). */
export const MEMORY_ROLES = ['user', 'assistant', 'system'] as const;

/** Memory: stores agent conversation messages per workflow. */
export const memoryBlock: BlockConfig = {
  type: 'memory',
  name: 'Memory',
  description: 'Add memory store',
  longDescription: 'Create persistent storage for data that needs to be accessed across multiple workflow steps: add, get, list and delete agent memories.',
  docsLink: 'https://docs.weft.dev/tools/memory',
  category: 'blocks',
  bgColor: '#F64F9E',
  icon: 'BrainIcon',
  subBlocks: [
    operationField([['add', 'Add Memory'], ['get', 'Get Memory'], ['getAll', 'Get All Memories'], ['delete', 'Delete Memory']]),
    shortInput('id', 'ID', 'Enter memory identifier', { condition: when('operation', ['add', 'get', 'delete']) }),
    dropdown('role', 'Role', [['user', 'User'], ['assistant', 'Assistant'], ['system', 'System']], { condition: when('operation', 'add') }),
    longInput('content', 'Content', 'Enter message content', { condition: when('operation', 'add') }),
  ],
  tools: { access: Object.values(TOOL_BY_OPERATION), config: { tool: operationTool(TOOL_BY_OPERATION, (op) => `Invalid memory operation: ${op}`) } },
  inputs: {
    operation: { type: 'string', required: true },
    id: { type: 'string', required: true },
    role: { type: 'string', required: false },
    content: { type: 'string', required: false },
  },
  outputs: { memories: 'any', id: 'string' },
};
