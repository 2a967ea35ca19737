import type { ToolConfig } from '../types.js';
import { accessToken, bearer, defineTool, need, oauth } from './define.js';
import { SCOPES } from './scopes.js';

const GRAPHQL = 'https://api.linear.app/graphql';

/** Linear GraphQL tools: the issues query and the issueCreate mutation. */
export const linearTools: ToolConfig[] = [
  defineTool({
    id: 'linear_read_issues',
    name: 'Linear Issue Reader',
    description: 'Fetch and filter issues from Linear',
    params: {
      accessToken: accessToken('Linear'),
      teamId: need('string', 'user', 'Linear team ID'),
      projectId: need('string', 'user', 'Linear project ID'),
    },
    request: { method: 'POST', url: GRAPHQL, headers: bearer() },
    oauth: oauth('linear', SCOPES.linear),
  }),
  defineTool({
    id: 'linear_create_issue',
    name: 'Linear Issue Writer',
    description: 'Create a new issue in Linear',
    params: {
      accessToken: accessToken('Linear'),
      teamId: need('string', 'user', 'Linear team ID'),
      projectId: need('string', 'user', 'Linear project ID'),
      title: need('string', 'llm', 'Issue title'),
      description: need('string', 'llm', 'Issue description'),
    },
    request: { method: 'POST', url: GRAPHQL, headers: bearer() },
    oauth: oauth('linear', SCOPES.linear),
  }),
];
