import { operationTool } from '../paramValues.js';
import { SCOPES } from '../tools/scopes.js';
import type { BlockConfig } from '../types.js';
import { credentialField, dropdown, longInput, operationField, shortInput, when } from './fields.js';

/** Notion operation → tool id. */
export const NOTION_TOOLS = {
  notion_read: 'notion_read',
  notion_read_database: 'notion_read_database',
  notion_write: 'notion_write',
  notion_create_page: 'notion_create_page',
  notion_query_database: 'notion_query_database',
  notion_search: 'notion_search',
  notion_create_database: 'notion_create_database',
} as const;

/** Notion: read and write pages, query and create databases, search the workspace. */
export const notionBlock: BlockConfig = {
  type: 'notion',
  name: 'Notion',
  description: 'Manage Notion pages',
  longDescription:
    'Integrate with Notion to read pages and databases, append content, create pages and databases, query databases and search the workspace (page size default and max 100).',
  docsLink: 'https://docs.weft.dev/tools/notion',
  category: 'tools',
  bgColor: '#181C1E',
  icon: 'NotionIcon',
  subBlocks: [
    operationField([
      ['notion_read', 'Read Page'], ['notion_read_database', 'Read Database'], ['notion_create_page', 'Create Page'],
      ['notion_create_database', 'Create Database'], ['notion_write', 'Append Content'], ['notion_query_database', 'Query Database'],
      ['notion_search', 'Search Workspace'],
    ]),
    credentialField('notion', 'notion', 'Notion Account', [...SCOPES.notionRead, 'page.write', 'database.read']),
    shortInput('pageId', 'Page ID', 'Enter Notion page ID', { condition: when('operation', ['notion_read', 'notion_write']) }),
    shortInput('databaseId', 'Database ID', 'Enter Notion database ID', { condition: when('operation', ['notion_read_database', 'notion_query_database']) }),
    shortInput('parentId', 'Parent Page ID', 'ID of parent page', { condition: when('operation', ['notion_create_page', 'notion_create_database']) }),
    shortInput('title', 'Title', 'Title for the new page or database', { condition: when('operation', ['notion_create_page', 'notion_create_database']) }),
    longInput('content', 'Content', 'Enter content', { condition: when('operation', ['notion_write', 'notion_create_page']) }),
    { id: 'filter', title: 'Filter (JSON)', type: 'code', layout: 'full', placeholder: 'Enter filter conditions as JSON (optional)', condition: when('operation', 'notion_query_database') },
    { id: 'sorts', title: 'Sort Criteria (JSON)', type: 'code', layout: 'full', placeholder: 'Enter sort criteria as JSON array (optional)', condition: when('operation', 'notion_query_database') },
    shortInput('pageSize', 'Page Size', 'Number of results (default: 100, max: 100)', { min: 1, max: 100, condition: when('operation', ['notion_query_database', 'notion_search']) }),
    shortInput('query', 'Search Query', 'Enter search terms (leave empty for all pages)', { condition: when('operation', 'notion_search') }),
    dropdown('filterType', 'Filter Type', [['all', 'All'], ['page', 'Pages Only'], ['database', 'Databases Only']], { condition: when('operation', 'notion_search') }),
    { id: 'properties', title: 'Database Properties (JSON)', type: 'code', layout: 'full', placeholder: 'Enter database properties as JSON object', condition: when('operation', 'notion_create_database') },
  ],
  tools: { access: Object.values(NOTION_TOOLS), config: { tool: operationTool(NOTION_TOOLS, (op) => `Invalid Notion operation: ${op}`) } },
  inputs: {
    operation: { type: 'string', required: true },
    credential: { type: 'string', required: true },
    pageId: { type: 'string', required: false },
    databaseId: { type: 'string', required: false },
    parentId: { type: 'string', required: false },
    title: { type: 'string', required: false },
    content: { type: 'string', required: false },
    filter: { type: 'string', required: false },
    sorts: { type: 'string', required: false },
    pageSize: { type: 'number', required: false },
    query: { type: 'string', required: false },
    filterType: { type: 'string', required: false },
    properties: { type: 'string', required: false },
  },
  outputs: { content: 'string', metadata: 'any' },
};
