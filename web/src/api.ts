/** The gateway's /api as the web app uses it; errors carry the server's message. */
export interface Workspace {
  id: string;
  name: string;
  permission: string;
}

export interface BlockState {
  id: string;
  type: string;
  name: string;
  position: { x: number; y: number };
  enabled: boolean;
}

export interface Edge {
  id: string;
  source: string;
  target: string;
}

export interface WorkflowState {
  blocks: Record<string, BlockState>;
  edges: Edge[];
}

export interface WorkflowSummary {
  id: string;
  name: string;
  description: string;
  color: string;
  state: WorkflowState | null;
}

export interface WorkflowDetail extends WorkflowSummary {
  version: number;
  state: WorkflowState;
}

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
  createWorkflow: (workspaceId: string) =>
    call<{ id: string; name: string }>('/workflows', { method: 'POST', body: JSON.stringify({ workspaceId }) }),
};
