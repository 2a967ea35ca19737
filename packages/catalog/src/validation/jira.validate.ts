import { firstText } from '../paramValues.js';

/** Jira: write and bulk read need a project; update needs a project and an issue; read needs an issue. */
export function validateJira(params: Record<string, unknown>): string | undefined {
  const project = firstText(params.projectId, params.manualProjectId);
  const issue = firstText(params.issueKey, params.manualIssueKey);
  const op = params.operation;
  if ((op === 'write' || op === 'update' || op === 'read-bulk') && project === '') return 'Project ID is required.';
  if ((op === 'update' || op === 'read') && issue === '') return 'Issue Key is required.';
  return undefined;
}
