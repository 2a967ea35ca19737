/** The gateway's /api as the web app uses it; errors carry the server's message. */
import type { BlockConfig } from '@weft/catalog';
import type { Command, WorkflowGraph } from '@weft/workflow';
import type { StoredEvent } from './collab/replica';

export interface Workspace {
  id: string;
  name: string;
  permission: string;
}

export interface WorkflowSummary {
  id: string;
  name: string;
  description: string;
  color: string;
  state: WorkflowGraph | null;
}

export interface WorkflowDetail extends WorkflowSummary {
  version: number;
  state: WorkflowGraph;
}

/** A catalogue block as GET /api/blocks sends it: the catalogue's definition as JSON (its tool selector and mapper stay on the server). */
export type BlockDefinition = Omit<BlockConfig, 'tools'> & { tools: { access: readonly string[] } };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(`/api${path}`, { ...init, headers: { 'content-type': 'application/json', ...init?.headers } });
  const body: unknown = await res.json().catch(() => ({}));
  if (!res.ok) {
    const message = typeof body === 'object' && body !== null && 'error' in body ? String(body.error) : res.statusText;
    throw new ApiError(res.status, message);
  }
  return body as T;
}

export const api = {
  workspaces: () => call<{ workspaces: Workspace[] }>('/workspaces').then((r) => r.workspaces),
  workflows: (workspaceId: string) => call<{ data: WorkflowSummary[] }>(`/workflows?workspaceId=${encodeURIComponent(workspaceId)}`).then((r) => r.data),
  workflow: (id: string) => call<{ data: WorkflowDetail }>(`/workflows/${encodeURIComponent(id)}`).then((r) => r.data),
  /** The full state with its undo history at `version`, lean-encoded (decode with `decodeSnapshot`). */
  fullState: (id: string) => call<{ version: number; state: unknown }>(`/workflows/${encodeURIComponent(id)}/state`),
  blocks: () => call<{ data: BlockDefinition[] }>('/blocks').then((r) => r.data),
  events: (id: string, after: number) =>
    call<{ events: StoredEvent[]; version: number }>(`/workflows/${encodeURIComponent(id)}/events?after=${after}`, { headers: { accept: 'application/json' } }),
  commands: (id: string, body: { commands: Command[]; expectedVersion: number; commandId: string }) =>
    call<{ version: number; events: StoredEvent[] }>(`/workflows/${encodeURIComponent(id)}/commands`, { method: 'POST', body: JSON.stringify(body) }),
  createWorkflow: (workspaceId: string) =>
    call<{ id: string; name: string }>('/workflows', { method: 'POST', body: JSON.stringify({ workspaceId }) }),
};
