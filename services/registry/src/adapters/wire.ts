import { AppError } from '@weft/platform';
import type { registry } from '@weft/contracts';
import type { WorkflowView } from '../entries/view.js';
import type { FolderView } from '../folders/folders.js';
import type { DeploymentStatusView } from '../deployments/status.js';
import type { Permission } from '../access.js';

/** The calling user, or 401 when the gateway sent none. */
export function actorId(actor: registry.Actor | undefined): string {
  if (!actor?.userId) throw new AppError('unauthenticated', 'Unauthorized');
  return actor.userId;
}

/** The access a GetWorkflow call asks for. */
export function accessOf(text: string): Permission {
  return text === 'write' || text === 'admin' ? text : 'read';
}

/** Parses an optional JSON object field; empty means absent. */
export function jsonObject(field: string, text: string | undefined): Record<string, unknown> | null | undefined {
  if (text === undefined) return undefined;
  if (text === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('validation', `${field} must be valid JSON`);
  }
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw new AppError('validation', `${field} must be a JSON object`);
  return Object.fromEntries(Object.entries(value));
}

export function workflowToWire(w: WorkflowView): registry.WorkflowEntry {
  return {
    id: w.id,
    workspaceId: w.workspaceId,
    folderId: w.folderId ?? undefined,
    name: w.name,
    description: w.description,
    color: w.color,
    marketplaceDataJson: w.marketplaceData ? JSON.stringify(w.marketplaceData) : '',
    isDeployed: w.isDeployed,
    deployedAt: w.deployedAt ?? undefined,
    apiKey: w.apiKey ?? undefined,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
    needsRedeployment: w.needsRedeployment,
    hasActiveWebhook: w.hasActiveWebhook,
  };
}

export function folderToWire(f: FolderView): registry.Folder {
  return { ...f, parentId: f.parentId ?? undefined };
}

export function statusToWire(s: DeploymentStatusView): registry.DeploymentStatusResponse {
  return { status: { ...s, deployedAt: s.deployedAt ?? undefined, apiKey: s.apiKey ?? undefined } };
}
