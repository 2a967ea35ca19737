import { text } from '../paramValues.js';
import type { ToolConfig } from '../types.js';
import { accessToken, may, need, oauth, toolFamily } from './define.js';
import { SCOPES } from './scopes.js';

/** Notion API version header value. */
export const NOTION_VERSION = '2022-06-28';

/** Notion page size: default and max 100. */
export const NOTION_PAGE_SIZE = 100;

/** Formats a 32-hex Notion id without dashes as 8-4-4-4-12; other ids pass through (§5). */
export function formatNotionId(id: unknown): string {
  const raw = text(id);
  if (!/^[0-9a-f]{32}$/i.test(raw)) return raw;
  return `${raw.slice(0, 8)}-${raw.slice(8, 12)}-${raw.slice(12, 16)}-${raw.slice(16, 20)}-${raw.slice(20)}`;
}

const family = (scopes: readonly string[]) =>
  toolFamily({
    baseUrl: 'https://api.notion.com/v1',
    headers: { Authorization: 'Bearer {accessToken}', 'Notion-Version': NOTION_VERSION, 'Content-Type': 'application/json' },
    common: { accessToken: accessToken('Notion') },
    oauth: oauth('notion', scopes),
  });
const read = family(SCOPES.notionRead);
const write = family(SCOPES.notionWrite);
const db = family(SCOPES.notionDatabase);
const pageSize = may('number', 'user', 'Number of results to return (default: 100, max: 100)', NOTION_PAGE_SIZE);

/** Notion tools (version header 2022-06-28). */
export const notionTools: ToolConfig[] = [
  read('notion_read', 'Notion Reader', 'Read content from a Notion page', 'GET', '/pages/{pageId}', {
    pageId: need('string', 'user', 'The ID of the Notion page to read'),
  }),
  db('notion_read_database', 'Read Notion Database', 'Read database information and structure from Notion', 'GET', '/databases/{databaseId}', {
    databaseId: need('string', 'user', 'The ID of the Notion database to read'),
  }),
  write('notion_write', 'Notion Content Appender', 'Append content to a Notion page', 'PATCH', '/blocks/{pageId}/children', {
    pageId: need('string', 'user', 'The ID of the Notion page to append content to'),
    content: need('string', 'llm', 'The content to append to the page'),
  }),
  write('notion_create_page', 'Notion Page Creator', 'Create a new page in Notion', 'POST', '/pages', {
    parentId: need('string', 'user', 'ID of the parent page'),
    title: may('string', 'llm', 'Title of the new page'),
    content: may('string', 'llm', 'Optional content to add to the page upon creation'),
  }),
  db('notion_query_database', 'Query Notion Database', 'Query and filter Notion database entries with advanced filtering', 'POST', '/databases/{databaseId}/query', {
    databaseId: need('string', 'user', 'The ID of the database to query'),
    filter: may('string', 'llm', 'Filter conditions as JSON (optional)'),
    sorts: may('string', 'llm', 'Sort criteria as JSON array (optional)'),
    pageSize,
  }),
  read('notion_search', 'Search Notion Workspace', 'Search across all pages and databases in the Notion workspace', 'POST', '/search', {
    query: may('string', 'llm', 'Search terms (leave empty to get all pages)'),
    filterType: may('string', 'user', 'Filter by object type: page or database (optional)'),
    pageSize,
  }),
  write('notion_create_database', 'Create Notion Database', 'Create a new database in Notion with custom properties (default one title property Name)', 'POST', '/databases', {
    parentId: need('string', 'user', 'ID of the parent page where the database will be created'),
    title: need('string', 'llm', 'Title for the new database'),
    properties: may('string', 'llm', 'Database properties as JSON object (optional)'),
  }),
];
