import { operationTool } from '../paramValues.js';
import type { BlockConfig } from '../types.js';
import { operationField, secretField, shortInput, when } from './fields.js';

const TOOL_BY_OPERATION = { add: 'mem0_add_memories', search: 'mem0_search_memories', get: 'mem0_get_memories' } as const;

/** Mem0: long-term memories per user. */
export const mem0Block: BlockConfig = {
  type: 'mem0',
  name: 'Mem0',
  description: 'Agent memory management',
  longDescription: 'Add, search and retrieve memories using Mem0. Store conversation history per user and search it with a result limit of 1 to 50.',
  docsLink: 'https://docs.weft.dev/tools/mem0',
  category: 'tools',
  bgColor: '#181C1E',
  icon: 'Mem0Icon',
  subBlocks: [
    operationField([['add', 'Add Memories'], ['search', 'Search Memories'], ['get', 'Get Memories']]),
    shortInput('userId', 'User ID', 'Enter the user identifier'),
    { id: 'messages', title: 'Messages', type: 'code', layout: 'full', placeholder: 'JSON array, e.g. [{"role": "user", "content": "I love Sim!"}]', condition: when('operation', 'add') },
    shortInput('query', 'Search Query', 'Enter search query to find relevant memories', { condition: when('operation', 'search') }),
    shortInput('memoryId', 'Memory ID', 'Specific memory ID to retrieve', { condition: when('operation', 'get') }),
    shortInput('startDate', 'Start Date', 'YYYY-MM-DD', { layout: 'half', condition: when('operation', 'get') }),
    shortInput('endDate', 'End Date', 'YYYY-MM-DD', { layout: 'half', condition: when('operation', 'get') }),
    secretField('apiKey', 'API Key', 'Enter your Mem0 API key'),
    { id: 'limit', title: 'Result Limit', type: 'slider', layout: 'full', min: 1, max: 50, step: 1, integer: true, defaultValue: 10, condition: when('operation', ['search', 'get']) },
  ],
  tools: { access: Object.values(TOOL_BY_OPERATION), config: { tool: operationTool(TOOL_BY_OPERATION, (op) => `Invalid Mem0 operation: ${op}`) } },
  inputs: {
    operation: { type: 'string', required: true },
    apiKey: { type: 'string', required: true },
    userId: { type: 'string', required: true },
    messages: { type: 'json', required: false },
    query: { type: 'string', required: false },
    memoryId: { type: 'string', required: false },
    startDate: { type: 'string', required: false },
    endDate: { type: 'string', required: false },
    limit: { type: 'number', required: false },
  },
  outputs: { ids: 'any', memories: 'any', searchResults: 'any' },
};
