import type { ToolConfig } from '../types.js';
import { accessToken, bearer, may, need, oauth, toolFamily } from './define.js';
import { SCOPES } from './scopes.js';

const tool = toolFamily({
  baseUrl: 'https://api.atlassian.com/ex/jira/{cloudId}/rest/api/3',
  headers: bearer(),
  common: {
    accessToken: accessToken('Jira'),
    domain: need('string', 'user', 'Your Jira domain (e.g., yourcompany.atlassian.net)'),
    cloudId: may('string', 'hidden', 'Jira Cloud ID for the instance; fetched from the domain when absent'),
  },
  oauth: oauth('jira', SCOPES.jira),
});

/** Jira issue tools. */
export const jiraTools: ToolConfig[] = [
  tool('jira_retrieve', 'Jira Retrieve', 'Retrieve detailed information about a specific Jira issue', 'GET', '/issue/{issueKey}', {
    projectId: may('string', 'user', 'Jira project ID'),
    issueKey: need('string', 'user', 'Jira issue key to retrieve (e.g., PROJ-123)'),
  }),
  tool('jira_bulk_read', 'Jira Bulk Read', 'Retrieve multiple Jira issues in bulk', 'POST', '/search/jql', {
    projectId: need('string', 'user', 'Jira project ID'),
  }),
  tool('jira_update', 'Jira Update', 'Update a Jira issue', 'PUT', '/issue/{issueKey}', {
    projectId: may('string', 'user', 'Jira project ID'),
    issueKey: need('string', 'user', 'Jira issue key to update'),
    summary: may('string', 'llm', 'New summary for the issue'),
    description: may('string', 'llm', 'New description for the issue'),
    status: may('string', 'llm', 'New status for the issue'),
    priority: may('string', 'llm', 'New priority for the issue'),
    assignee: may('string', 'llm', 'New assignee for the issue'),
  }),
  tool('jira_write', 'Jira Write', 'Write a Jira issue', 'POST', '/issue', {
    projectId: need('string', 'user', 'Project ID for the issue'),
    summary: need('string', 'llm', 'Summary for the issue'),
    description: may('string', 'llm', 'Description for the issue'),
    issueType: need('string', 'user', 'Type of issue to create (default Task)'),
    priority: may('string', 'llm', 'Priority for the issue'),
    assignee: may('string', 'llm', 'Assignee for the issue'),
  }),
];
