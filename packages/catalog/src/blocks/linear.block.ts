import type { BlockConfig } from '../types.js';
import { credentialField, longInput, operationField, selectorPair, shortInput, when } from './fields.js';
import { firstText, operationTool } from '../paramValues.js';
import { SCOPES } from '../tools/scopes.js';

const TOOL_BY_OPERATION = { read: 'linear_read_issues', write: 'linear_create_issue' } as const;

/** Linear: read a project's issues or create one. */
export const linearBlock: BlockConfig = {
  type: 'linear',
  name: 'Linear',
  description: 'Read and create issues in Linear',
  longDescription:
    'Integrate with Linear to fetch the issues of a team project or create new issues with a title and description.',
  docsLink: 'https://docs.weft.dev/tools/linear',
  category: 'tools',
  bgColor: '#5E6AD2',
  icon: 'LinearIcon',
  subBlocks: [
    operationField([['read', 'Read Issues'], ['write', 'Create Issue']]),
    credentialField('linear', 'linear', 'Linear Account', SCOPES.linear),
    ...selectorPair(
      { id: 'teamId', title: 'Team', type: 'project-selector', layout: 'full', provider: 'linear', serviceId: 'linear-teams', placeholder: 'Select a team' },
      { id: 'manualTeamId', title: 'Team ID', placeholder: 'Enter Linear team ID' },
    ),
    ...selectorPair(
      { id: 'projectId', title: 'Project', type: 'project-selector', layout: 'full', provider: 'linear', serviceId: 'linear-projects', placeholder: 'Select a project', dependsOn: ['teamId', 'manualTeamId'] },
      { id: 'manualProjectId', title: 'Project ID', placeholder: 'Enter Linear project ID' },
    ),
    shortInput('title', 'Title', 'Enter issue title', { condition: when('operation', 'write') }),
    longInput('description', 'Description', 'Enter issue description', { condition: when('operation', 'write') }),
  ],
  tools: {
    access: Object.values(TOOL_BY_OPERATION),
    config: {
      tool: operationTool(TOOL_BY_OPERATION, (op) => `Invalid Linear operation: ${op}`),
      // Basic mode picks the team and project, advanced mode types their ids: the picked one first, as Jira and Teams.
      params: ({ manualTeamId, manualProjectId, ...rest }) => ({
        ...rest,
        teamId: firstText(rest.teamId, manualTeamId),
        projectId: firstText(rest.projectId, manualProjectId),
      }),
    },
  },
  inputs: {
    operation: { type: 'string', required: true },
    credential: { type: 'string', required: true },
    teamId: { type: 'string', required: false },
    manualTeamId: { type: 'string', required: false },
    projectId: { type: 'string', required: false },
    manualProjectId: { type: 'string', required: false },
    title: { type: 'string', required: false },
    description: { type: 'string', required: false },
  },
  outputs: { issues: 'json', issue: 'json' },
};
