/** The gateway's /api as the web app uses it; errors carry the server's message and body. */
import type { BlockConfig, ProviderConfig, SelectorPage, SelectorRequest, ToolConfig } from '@weft/catalog';
import type { Command, WorkflowGraph } from '@weft/workflow';
import type { StoredEvent } from './collab/replica';
import type { LayoutChoices } from './shell/layout';
import type { LayoutChoicesChange } from './shell/useLayout';

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
  folderId: string | null;
  workspaceId?: string;
  isDeployed?: boolean;
  needsRedeployment?: boolean;
  state: WorkflowGraph | null;
}

export interface WorkflowDetail extends WorkflowSummary {
  version: number;
  state: WorkflowGraph;
  apiKey?: string | null;
  deployedAt?: string | null;
}

export interface Folder {
  id: string;
  name: string;
  workspaceId: string;
  parentId: string | null;
  color?: string;
  isExpanded?: boolean;
}

export interface Member {
  userId: string;
  email: string | null;
  name: string | null;
  permission: string;
}

export interface ApiKey {
  id: string;
  name: string;
  key?: string;
  createdAt?: string;
  lastUsed?: string | null;
}

export interface OAuthCredential {
  id: string;
  providerId: string;
  /** Space-separated, as the provider granted them. */
  scopes?: string;
  createdAt?: string;
  expiresAt?: string;
}

export interface CustomTool {
  id: string;
  title: string;
  schema: { type?: string; function?: { name?: string; description?: string; parameters?: unknown } };
  code: string;
  createdAt?: string;
  updatedAt?: string;
}

/** A knowledge base of a workspace (GET /api/knowledge). */
export interface KnowledgeBase {
  id: string;
  workspaceId: string;
  name: string;
  description: string | null;
  documentCount?: number;
  chunkCount?: number;
}

/** A document of a knowledge base (GET /api/knowledge/{id}/documents). */
export interface KnowledgeDocument {
  id: string;
  knowledgeBaseId: string;
  name: string;
  chunkCount: number;
  characterCount: number;
  enabled: boolean;
}

/** A chunk a knowledge search found (POST /api/knowledge/search), most similar first. */
export interface KnowledgeHit {
  id: string;
  content: string;
  documentId: string;
  documentName: string;
  chunkIndex: number;
  similarity: number;
}

/** The resource selectors' list (POST /api/tools/selectors/list), as the catalogue describes it. */
export type { SelectorItem, SelectorPage, SelectorRequest } from '@weft/catalog';

/** An execution as GET /api/executions/{id} and the workflow's execution list answer it. */
export interface ExecutionSummary {
  executionId: string;
  workflowId: string;
  status: string;
  trigger: string;
  input: unknown;
  output: unknown;
  error: string | null;
  startedAt: string;
  endedAt: string | null;
  durationMs: number | null;
  cost: { total?: number } | null;
  deploymentVersion: number | null;
  fromBlockId: string | null;
}

/** One deployed version of a workflow. */
export interface DeploymentVersion {
  version: number;
  isActive: boolean;
  deployedAt: string;
  createdBy?: string;
  blocksCount?: number;
  edgesCount?: number;
}

export interface SessionUser {
  id: string;
  name: string;
  email: string;
}

/** A catalogue block as GET /api/blocks sends it: the catalogue's definition as JSON (its tool selector and mapper stay on the server). */
export type BlockDefinition = Omit<BlockConfig, 'tools'> & { tools: { access: readonly string[] } };
export type ProviderDefinition = ProviderConfig;
export type ToolDefinition = ToolConfig;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown> = {},
    readonly statusText = '',
  ) {
    super(message);
  }
}

/** The status text of a failed call (spec 000 §8's `{statusText}`), else the error's message. */
export function statusTextOf(error: unknown): string {
  return error instanceof ApiError ? error.statusText || error.message : error instanceof Error ? error.message : String(error);
}

/** The message of an error answer: `error` (our routes) or `message` (the auth routes), else the status text. */
export function answerMessage(body: unknown, fallback: string): string {
  if (typeof body === 'object' && body !== null) {
    if ('error' in body && typeof body.error === 'string' && body.error) return body.error;
    if ('message' in body && typeof body.message === 'string' && body.message) return body.message;
  }
  return fallback;
}

async function call<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(`/api${path}`, { ...init, headers: { 'content-type': 'application/json', ...init?.headers } });
  const body: unknown = await res.json().catch(() => ({}));
  if (!res.ok) {
    const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    throw new ApiError(res.status, answerMessage(body, res.statusText || `HTTP ${res.status}`), record, res.statusText || `HTTP ${res.status}`);
  }
  return body as T;
}

const json = (method: string, body?: unknown): RequestInit => ({ method, body: body === undefined ? undefined : JSON.stringify(body) });
const enc = encodeURIComponent;

/** What a browser lets a request outlive its page with (`keepalive`): bodies to 64 KiB in all; kept under, with room. */
const KEEPALIVE_BODY_LIMIT = 60_000;

/** A request that survives the page being left (a reload, the tab closed) when its body is small enough for `keepalive`. */
export function lasting(init: RequestInit): RequestInit {
  const size = typeof init.body === 'string' ? new TextEncoder().encode(init.body).length : 0;
  return size < KEEPALIVE_BODY_LIMIT ? { ...init, keepalive: true } : init;
}

export const api = {
  // Accounts
  session: () => call<{ user: SessionUser } | null>('/auth/get-session'),
  signIn: (email: string, password: string) => call<{ user: SessionUser }>('/auth/sign-in/email', json('POST', { email, password })),
  signUp: (name: string, email: string, password: string) => call<{ user: SessionUser }>('/auth/sign-up/email', json('POST', { name, email, password })),
  signOut: () => call<unknown>('/auth/sign-out', json('POST', {})),
  apiKeys: () => call<{ keys: ApiKey[] }>('/auth/api-keys').then((r) => r.keys),
  createApiKey: (name: string) => call<ApiKey>('/auth/api-keys', json('POST', { name })),
  revokeApiKey: (id: string) => call<unknown>(`/auth/api-keys/${enc(id)}`, json('DELETE')),
  oauthCredentials: () => call<{ credentials: OAuthCredential[] }>('/auth/oauth/credentials').then((r) => r.credentials),
  disconnectOAuth: (id: string) => call<unknown>(`/auth/oauth/credentials/${enc(id)}`, json('DELETE')),

  // Workspaces
  workspaces: () => call<{ workspaces: Workspace[] }>('/workspaces').then((r) => r.workspaces),
  createWorkspace: (name: string) => call<{ workspace: Workspace }>('/workspaces', json('POST', { name })).then((r) => r.workspace),
  renameWorkspace: (id: string, name: string) => call<{ workspace: Workspace }>(`/workspaces/${enc(id)}`, json('PATCH', { name })),
  deleteWorkspace: (id: string) => call<unknown>(`/workspaces/${enc(id)}`, json('DELETE')),
  permissions: (id: string) => call<{ permission: string; members: Member[] }>(`/workspaces/${enc(id)}/permissions`),
  inviteMember: (id: string, email: string, permission: string) => call<{ member: Member }>(`/workspaces/${enc(id)}/members`, json('POST', { email, permission })),
  setMember: (id: string, userId: string, permission: string) => call<unknown>(`/workspaces/${enc(id)}/members/${enc(userId)}`, json('PATCH', { permission })),
  removeMember: (id: string, userId: string) => call<unknown>(`/workspaces/${enc(id)}/members/${enc(userId)}`, json('DELETE')),

  // Folders
  folders: (workspaceId: string) => call<{ folders: Folder[] }>(`/folders?workspaceId=${enc(workspaceId)}`).then((r) => r.folders),
  createFolder: (workspaceId: string, name: string, parentId?: string) => call<{ folder: Folder }>('/folders', json('POST', { workspaceId, name, parentId })).then((r) => r.folder),
  updateFolder: (id: string, fields: { name?: string; parentId?: string | null; isExpanded?: boolean }) => call<{ folder: Folder }>(`/folders/${enc(id)}`, json('PUT', fields)),
  deleteFolder: (id: string) => call<unknown>(`/folders/${enc(id)}`, json('DELETE')),

  // Workflows
  workflows: (workspaceId: string) => call<{ data: WorkflowSummary[] }>(`/workflows?workspaceId=${enc(workspaceId)}`).then((r) => r.data),
  workflow: (id: string) => call<{ data: WorkflowDetail }>(`/workflows/${enc(id)}`).then((r) => r.data),
  createWorkflow: (workspaceId: string, fields: { name?: string; folderId?: string | null } = {}) =>
    call<{ id: string; name: string }>('/workflows', json('POST', { workspaceId, ...fields, folderId: fields.folderId ?? undefined })),
  updateWorkflow: (id: string, fields: { name?: string; color?: string; folderId?: string | null; description?: string }) =>
    call<{ workflow: WorkflowSummary }>(`/workflows/${enc(id)}`, json('PUT', fields)),
  deleteWorkflow: (id: string) => call<unknown>(`/workflows/${enc(id)}`, json('DELETE')),
  duplicateWorkflow: (id: string, fields: { name: string; description?: string; color?: string; workspaceId?: string; folderId?: string | null }) =>
    call<{ id: string }>(`/workflows/${enc(id)}/duplicate`, json('POST', fields)),
  exportYaml: (id: string) => call<{ yaml: string }>(`/workflows/${enc(id)}/yaml`).then((r) => r.yaml),
  importYaml: (id: string, yamlContent: string) =>
    call<{ success: boolean; message?: string; warnings?: string[] }>(`/workflows/${enc(id)}/yaml`, json('PUT', { yamlContent, applyAutoLayout: true, createCheckpoint: true, source: 'import' })),

  // Editor
  /** The full state with its undo history at `version`, lean-encoded (decode with `decodeSnapshot`). */
  fullState: (id: string) => call<{ version: number; state: unknown }>(`/workflows/${enc(id)}/state`),
  events: (id: string, after: number) => call<{ events: StoredEvent[]; version: number }>(`/workflows/${enc(id)}/events?after=${after}`, { headers: { accept: 'application/json' } }),
  commands: (id: string, body: { commands: Command[]; expectedVersion: number; commandId: string }) =>
    call<{ version: number; events: StoredEvent[] }>(`/workflows/${enc(id)}/commands`, lasting(json('POST', body))),

  // Catalogue
  blocks: () => call<{ data: BlockDefinition[] }>('/blocks').then((r) => r.data),
  tools: () => call<{ data: ToolDefinition[] }>('/tools').then((r) => r.data),
  providers: () => call<{ data: ProviderDefinition[] }>('/providers').then((r) => r.data),
  validateBlock: (blockType: string, params: Record<string, unknown>) =>
    call<{ success: true } | { success: false; error: string }>('/blocks/validate', json('POST', { blockType, params })),

  // Settings
  environment: () => call<{ data: Record<string, { key: string; value: string }> }>('/environment').then((r) => r.data),
  /** The signed-in user's settings: the layout choices that follow them across browsers. */
  settings: () => call<{ data: { layout: LayoutChoices } }>('/settings').then((r) => r.data),
  saveSettings: (change: { layout: LayoutChoicesChange }) => call<unknown>('/settings', json('PATCH', change)),
  saveEnvironment: (variables: Record<string, string>) => call<unknown>('/environment', json('POST', { variables })),
  customTools: () => call<{ data: unknown }>('/tools/custom').then((r) => r.data),
  saveCustomTools: (tools: CustomTool[]) => call<{ data: unknown }>('/tools/custom', json('POST', { tools })),
  deleteCustomTool: (id: string) => call<unknown>(`/tools/custom?id=${enc(id)}`, json('DELETE')),

  /** A page of the resources (channels, files, projects …) a selector field of a block offers. */
  selectorItems: (request: SelectorRequest, signal?: AbortSignal) => call<SelectorPage>('/tools/selectors/list', { ...json('POST', request), signal }),

  /** Models the operator's local Ollama server has ([] when it does not answer). */
  localModels: () => call<{ models: string[] }>('/providers/ollama/models').then((r) => r.models),

  // Knowledge
  knowledgeBases: (workspaceId: string) => call<{ knowledgeBases: KnowledgeBase[] }>(`/knowledge?workspaceId=${enc(workspaceId)}&limit=100`).then((r) => r.knowledgeBases),
  createKnowledgeBase: (workspaceId: string, name: string, description: string) =>
    call<{ knowledgeBase: KnowledgeBase }>('/knowledge', json('POST', { workspaceId, name, ...(description ? { description } : {}) })).then((r) => r.knowledgeBase),
  deleteKnowledgeBase: (id: string) => call<unknown>(`/knowledge/${enc(id)}`, json('DELETE')),
  knowledgeDocuments: (id: string) => call<{ documents: KnowledgeDocument[] }>(`/knowledge/${enc(id)}/documents?limit=100`).then((r) => r.documents),
  addKnowledgeText: (id: string, name: string, content: string) => call<unknown>(`/knowledge/${enc(id)}/documents`, json('POST', { name, content })),
  deleteKnowledgeDocument: (id: string, documentId: string) => call<unknown>(`/knowledge/${enc(id)}/documents/${enc(documentId)}`, json('DELETE')),
  searchKnowledge: (id: string, query: string, topK: number) =>
    call<{ results: KnowledgeHit[] }>('/knowledge/search', json('POST', { knowledgeBaseIds: [id], query, topK })).then((r) => r.results),

  // Runs
  executions: (id: string, filters: { status?: string; trigger?: string; cursor?: string } = {}) => {
    const q = new URLSearchParams(Object.entries(filters).filter((e): e is [string, string] => Boolean(e[1])));
    return call<{ executions: ExecutionSummary[]; nextCursor: string | null }>(`/workflows/${enc(id)}/executions${q.size > 0 ? `?${q.toString()}` : ''}`);
  },
  execution: (executionId: string) => call<ExecutionSummary & { logs?: unknown[] }>(`/executions/${enc(executionId)}`),
  /** A stored value an execution's answer left as `{$blobRef, bytes}` (past the answer's values budget). */
  executionValue: (executionId: string, ref: string) => call<unknown>(`/executions/${enc(executionId)}/values?ref=${enc(ref)}`),
  cancelExecution: (executionId: string) => call<ExecutionSummary>(`/executions/${enc(executionId)}/cancel`, json('POST', {})),

  // Deployment
  deploy: (id: string) => call<{ apiKey: string | null; isDeployed: boolean; deployedAt: string | null }>(`/workflows/${enc(id)}/deploy`, json('POST', {})),
  undeploy: (id: string) => call<unknown>(`/workflows/${enc(id)}/deploy`, json('DELETE')),
  deployments: (id: string) => call<{ data: DeploymentVersion[] }>(`/workflows/${enc(id)}/deployments`).then((r) => r.data),
  activateDeployment: (id: string, version: number) => call<unknown>(`/workflows/${enc(id)}/deployments/${version}/activate`, json('POST', {})),
  revertToDeployed: (id: string) => call<{ success: boolean; version: number }>(`/workflows/${enc(id)}/revert-to-deployed`, json('POST', {})),
  deployment: (id: string) =>
    call<{ isDeployed: boolean; deployedAt: string | null; apiKey: string | null; needsRedeployment: boolean; hasActiveWebhook: boolean }>(`/workflows/${enc(id)}/deploy`),

  // Schedules of the deployed workflow (docs/triggers.md): `{schedules: []}` when it has none; a 404
  // (the workflow is gone) is an error.
  schedules: (workflowId: string) => call<{ schedules: LiveSchedule[] }>(`/schedules?workflowId=${enc(workflowId)}`).then((r) => r.schedules),
  /**
   * Every schedule of the workspace's workflows (`GET /api/schedules?workspaceId=`): one request,
   * unless the workspace has more than a page of them (500), then one per page (`nextCursor`).
   */
  workspaceSchedules: async (workspaceId: string) => {
    const all: LiveSchedule[] = [];
    let cursor: string | null = null;
    do {
      const page: { schedules: LiveSchedule[]; nextCursor: string | null } = await call(`/schedules?workspaceId=${enc(workspaceId)}&limit=500${cursor ? `&cursor=${enc(cursor)}` : ''}`);
      all.push(...page.schedules);
      cursor = page.nextCursor;
    } while (cursor);
    return all;
  },
  /** Pauses or resumes one schedule (`<workflowId>:<blockId>`). */
  setSchedulePaused: (workflowId: string, blockId: string, paused: boolean) => call<LiveSchedule>(`/schedules/${enc(`${workflowId}:${blockId}`)}/${paused ? 'pause' : 'resume'}`, json('POST', {})),
};

/** A schedule as the runner keeps it for the active deployment (`GET /api/schedules`). */
export interface LiveSchedule {
  id: string;
  workflowId: string;
  blockId: string;
  cronExpression: string;
  timezone: string;
  /** The next due times (up to five, ISO); none while paused. */
  nextRunAt: string[];
  lastRunAt: string | null;
  status: 'active' | 'paused';
}
