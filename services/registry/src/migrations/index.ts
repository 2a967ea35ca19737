import type { Migration } from 'kysely';
import { workspacesAndWorkflows } from './0001_workspaces_and_workflows.js';
import { registryTables } from './0002_registry.js';

/** The registry's migrations, applied in name order. */
export const migrations: Record<string, Migration> = {
  '0001_workspaces_and_workflows': workspacesAndWorkflows,
  '0002_registry': registryTables,
};
