import { firstText, operationTool, text } from '../paramValues.js';
import { SCOPES } from '../tools/scopes.js';
import type { BlockConfig } from '../types.js';
import { credentialField, longInput, operationField, selectorPair, shortInput, when } from './fields.js';

const TOOL_BY_OPERATION = { read: 'jira_retrieve', 'read-bulk': 'jira_bulk_read', update: 'jira_update', write: 'jira_write' } as const;

/** Jira: read, bulk-read, update and create issues. */
export const jiraBlock: BlockConfig = {
  type: 'jira',
  name: 'Jira',
  description: 'Interact with Jira',
  longDescription: 'Connect to Jira workspaces to read, write and update issues. Pick projects and issues or enter their keys; the issue type defaults to Task.',
  docsLink: 'https://docs.weft.dev/tools/jira',
  category: 'tools',
  bgColor: '#E0E0E0',
  icon: 'JiraIcon',
  subBlocks: [
    operationField([['read', 'Read Issue'], ['read-bulk', 'Read Issues'], ['update', 'Update Issue'], ['write', 'Write Issue']]),
    shortInput('domain', 'Domain', 'Enter Jira domain (e.g., weft.atlassian.net)'),
    credentialField('jira', 'jira', 'Jira Account', SCOPES.jira),
    ...selectorPair(
      { id: 'projectId', title: 'Select Project', type: 'project-selector', layout: 'full', provider: 'jira', serviceId: 'jira', placeholder: 'Select Jira project' },
      { id: 'manualProjectId', title: 'Project ID', placeholder: 'Enter Jira project ID' },
    ),
    ...selectorPair(
      { id: 'issueKey', title: 'Select Issue', type: 'file-selector', layout: 'full', provider: 'jira', serviceId: 'jira', placeholder: 'Select Jira issue', dependsOn: ['projectId', 'manualProjectId'], condition: when('operation', ['read', 'update']) },
      { id: 'manualIssueKey', title: 'Issue Key', placeholder: 'Enter Jira issue key' },
    ),
    shortInput('summary', 'New Summary', 'Enter new summary for the issue', { condition: when('operation', ['update', 'write']) }),
    longInput('description', 'New Description', 'Enter new description for the issue', { condition: when('operation', ['update', 'write']) }),
    shortInput('issueType', 'Issue Type', 'Task', { defaultValue: 'Task', condition: when('operation', 'write') }),
  ],
  tools: {
    access: Object.values(TOOL_BY_OPERATION),
    config: {
      tool: operationTool(TOOL_BY_OPERATION, (op) => `Invalid Jira operation: ${op}`),
      params: ({ manualProjectId, manualIssueKey, ...rest }) => ({
        ...rest,
        projectId: firstText(rest.projectId, manualProjectId),
        issueKey: firstText(rest.issueKey, manualIssueKey),
        issueType: text(rest.issueType) || 'Task',
      }),
    },
  },
  inputs: {
    operation: { type: 'string', required: true },
    domain: { type: 'string', required: true },
    credential: { type: 'string', required: true },
    issueKey: { type: 'string', required: false },
    projectId: { type: 'string', required: false },
    manualIssueKey: { type: 'string', required: false },
    manualProjectId: { type: 'string', required: false },
    summary: { type: 'string', required: false },
    description: { type: 'string', required: false },
    issueType: { type: 'string', required: false },
  },
  outputs: { ts: 'string', issueKey: 'string', summary: 'string', description: 'string', created: 'string', updated: 'string', success: 'boolean', url: 'string' },
};
