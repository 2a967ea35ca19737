import { firstText, operationTool } from '../paramValues.js';
import { SCOPES } from '../tools/scopes.js';
import type { BlockConfig } from '../types.js';
import { credentialField, longInput, operationField, selectorPair, shortInput, when } from './fields.js';

const TOOL_BY_OPERATION = { read: 'confluence_retrieve', update: 'confluence_update' } as const;

/** Confluence: read and update wiki pages. */
export const confluenceBlock: BlockConfig = {
  type: 'confluence',
  name: 'Confluence',
  description: 'Interact with Confluence',
  longDescription: 'Connect to Confluence workspaces to retrieve and update pages. Pick a page or enter its id.',
  docsLink: 'https://docs.weft.dev/tools/confluence',
  category: 'tools',
  bgColor: '#E0E0E0',
  icon: 'ConfluenceIcon',
  subBlocks: [
    operationField([['read', 'Read Page'], ['update', 'Update Page']]),
    shortInput('domain', 'Domain', 'Enter Confluence domain (e.g., weft.atlassian.net)'),
    credentialField('confluence', 'confluence', 'Confluence Account', SCOPES.confluence),
    ...selectorPair(
      { id: 'pageId', title: 'Select Page', type: 'file-selector', layout: 'full', provider: 'confluence', serviceId: 'confluence', placeholder: 'Select Confluence page' },
      { id: 'manualPageId', title: 'Page ID', placeholder: 'Enter Confluence page ID' },
    ),
    shortInput('title', 'New Title', 'Enter new title for the page', { condition: when('operation', 'update') }),
    longInput('content', 'New Content', 'Enter new content for the page', { condition: when('operation', 'update') }),
  ],
  tools: {
    access: Object.values(TOOL_BY_OPERATION),
    config: {
      tool: operationTool(TOOL_BY_OPERATION, (op) => `Invalid Confluence operation: ${op}`),
      params: ({ manualPageId, ...rest }) => ({ ...rest, pageId: firstText(rest.pageId, manualPageId) }),
    },
  },
  inputs: {
    operation: { type: 'string', required: true },
    domain: { type: 'string', required: true },
    credential: { type: 'string', required: true },
    pageId: { type: 'string', required: false },
    manualPageId: { type: 'string', required: false },
    title: { type: 'string', required: false },
    content: { type: 'string', required: false },
  },
  outputs: { ts: 'string', pageId: 'string', content: 'string', title: 'string', success: 'boolean' },
};
