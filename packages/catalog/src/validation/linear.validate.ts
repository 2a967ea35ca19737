import { firstText, isBlank } from '../paramValues.js';

/** Linear: team and project ids; creating an issue needs a non-blank title and description. */
export function validateLinear(params: Record<string, unknown>): string | undefined {
  if (firstText(params.teamId, params.manualTeamId) === '') return 'Team ID is required';
  if (firstText(params.projectId, params.manualProjectId) === '') return 'Project ID is required';
  if (params.operation === 'write') {
    if (isBlank(params.title)) return 'Title is required to create a Linear issue';
    if (isBlank(params.description)) return 'Description is required to create a Linear issue';
  }
  return undefined;
}
