import { ApiError } from '../api';

/** Colours offered for a workflow (the registry's default first). */
export const WORKFLOW_COLORS = ['#3972F6', '#701FFC', '#F64F9E', '#E4572E', '#F59E0B', '#10B981', '#0EA5E9', '#14B8A6', '#8B5CF6', '#EF4444', '#64748B', '#808080'];

/**
 * The spec 000 §8 message of a failed workflow call: `Failed to <verb> workflow: <server message>`. §8 names
 * no message for import, export, deploy, undeploy or revert: theirs follow the same pattern.
 */
export function failure(verb: 'create' | 'duplicate' | 'delete' | 'update' | 'load' | 'import' | 'export' | 'deploy' | 'undeploy' | 'revert', error: unknown): string {
  const detail = error instanceof Error ? error.message : String(error);
  return verb === 'load' ? `Failed to load workflows: ${detail}` : `Failed to ${verb} workflow: ${detail}`;
}

/** The plan limit: 403 with upgradeRequired. */
export function isUpgradeRequired(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 403 && error.body.upgradeRequired === true;
}

/** The name of a workflow's copy (spec 000 §7: the name with ' (Copy)'). */
export const copyName = (name: string) => `${name} (Copy)`;

/** A file name for a workflow's YAML export. */
export function yamlFileName(name: string): string {
  const base = name.trim().replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '');
  return `${base || 'workflow'}.yaml`;
}

/** The folder ids from `folderId` up to the root, so a folder cannot be moved into itself or below it. */
export function ancestors(folderId: string | null, parentOf: (id: string) => string | null): string[] {
  const seen: string[] = [];
  for (let id = folderId; id !== null && !seen.includes(id); id = parentOf(id)) seen.push(id);
  return seen;
}
