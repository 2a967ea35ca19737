import type { ToolConfig } from '../types.js';
import { accessToken, defineTool, may, need, oauth } from './define.js';
import { SCOPES } from './scopes.js';

const common = {
  accessToken: accessToken('Confluence'),
  domain: need('string', 'user', 'Your Confluence domain (e.g., yourcompany.atlassian.net)'),
  pageId: need('string', 'user', 'Confluence page ID'),
  cloudId: may('string', 'hidden', 'Confluence Cloud ID for the instance; fetched from the domain when absent'),
};

/** Confluence page read and update through internal routes. */
export const confluenceTools: ToolConfig[] = [
  defineTool({
    id: 'confluence_retrieve',
    name: 'Confluence Retrieve',
    description: 'Retrieve content from Confluence pages using the Confluence API',
    params: common,
    request: { method: 'POST', url: '/api/tools/confluence/page' },
    oauth: oauth('confluence', SCOPES.confluence),
  }),
  defineTool({
    id: 'confluence_update',
    name: 'Confluence Update',
    description: 'Update a Confluence page using the Confluence API (version defaults to 1)',
    params: {
      ...common,
      title: may('string', 'llm', 'New title for the page'),
      content: may('string', 'llm', 'New content for the page in Confluence storage format'),
      version: may('number', 'user', 'Version number of the page', 1),
    },
    request: { method: 'PUT', url: '/api/tools/confluence/page' },
    oauth: oauth('confluence', SCOPES.confluence),
  }),
];
