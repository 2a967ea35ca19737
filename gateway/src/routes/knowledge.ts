import { Router, type Request, type Response } from 'express';
import { AppError } from '@weft/platform';
import type { Clients } from '../clients.js';
import { requireActor, type Actor, type Authenticator } from '../auth.js';
import type { AccessMode } from '../access.js';
import { fromJson, NOT_A_JSON_OBJECT } from '../validate.js';
import { environmentOf, sendRoute, stringQuery } from './internalCall.js';

/**
 * Adding documents parses files and embeds every chunk, and a search without pgvector reads every
 * chunk of its bases (docs/benchmarks.md): both may take longer than one gRPC call's default.
 */
const LONG_DEADLINE_MS = 120_000;
const isLong = (req: Request) => req.method === 'POST' && (/\/documents\/?$/.test(req.path) || req.path === '/knowledge/search');

const notFound = (id: string) => new AppError('not_found', `Knowledge base not found: ${id}`);

/** The request's JSON object (none: empty); a body that is no object (an array) is a 400 saying so. */
function bodyOf(req: Request): Record<string, unknown> {
  if (req.body === undefined || req.body === null) return {};
  if (typeof req.body !== 'object' || Array.isArray(req.body)) throw new AppError('validation', NOT_A_JSON_OBJECT);
  return req.body as Record<string, unknown>;
}

/** The ids a search names: a list, or one comma separated string. */
function searchIds(req: Request): string[] {
  const v = bodyOf(req).knowledgeBaseIds;
  const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [];
  return [...new Set(list.map((x) => (typeof x === 'string' ? x.trim() : '')).filter(Boolean))];
}

/**
 * `/api/knowledge` (spec 001 §7; docs/tools.md): knowledge bases belong to a workspace, and every
 * call is checked against it — read to list, read and search, write to create, change, delete or add
 * documents and chunks. The workspace is the request's (`workspaceId`) when creating or listing, and
 * the knowledge base's own otherwise (asked of the integrations service, which then works inside it).
 */
export function knowledgeRoutes(clients: Clients, auth: Authenticator): Router {
  const r = Router();

  async function requireWorkspace(actor: Actor, workspaceId: string, mode: AccessMode): Promise<void> {
    const { permission } = await clients.registry.getPermissions({ actor, workspaceId });
    if (mode === 'write' && permission === 'read') throw new AppError('forbidden', 'This action needs write permission in the workspace');
  }

  /** Each knowledge base's workspace (unknown ids are left out). */
  async function workspacesOf(ids: string[]): Promise<Record<string, string>> {
    const answer = await clients.integrations.callRoute({ method: 'POST', path: '/internal/knowledge/workspaces', query: {}, bodyJson: JSON.stringify({ ids }), context: { workspaceId: '', workflowId: '', actorId: '' }, envVars: {} });
    return ((fromJson(answer.bodyJson) ?? {}) as { workspaces?: Record<string, string> }).workspaces ?? {};
  }

  async function forward(req: Request, res: Response, actor: Actor, workspaceId: string): Promise<void> {
    const writes = req.method !== 'GET' && req.method !== 'HEAD';
    const answer = await clients.integrations.callRoute(
      {
        method: req.method,
        path: req.path,
        query: stringQuery(req),
        bodyJson: writes && req.body !== undefined ? JSON.stringify(req.body) : '',
        context: { workspaceId, workflowId: '', actorId: actor.userId },
        // Embeddings use the caller's OPENAI_API_KEY when they have one (else the operator's).
        envVars: writes ? await environmentOf(clients, actor) : {},
      },
      { deadlineMs: isLong(req) ? LONG_DEADLINE_MS : undefined },
    );
    sendRoute(res, answer);
  }

  r.get('/knowledge', async (req, res) => {
    const actor = await requireActor(auth, req);
    const workspaceId = stringQuery(req).workspaceId ?? '';
    if (!workspaceId) throw new AppError('validation', 'workspaceId is required');
    await requireWorkspace(actor, workspaceId, 'read');
    await forward(req, res, actor, workspaceId);
  });

  r.post('/knowledge', async (req, res) => {
    const actor = await requireActor(auth, req);
    const workspaceId = bodyOf(req).workspaceId;
    if (typeof workspaceId !== 'string' || !workspaceId) throw new AppError('validation', 'workspaceId is required');
    await requireWorkspace(actor, workspaceId, 'write');
    await forward(req, res, actor, workspaceId);
  });

  r.post('/knowledge/search', async (req, res) => {
    const actor = await requireActor(auth, req);
    const ids = searchIds(req);
    // Without ids the integrations service answers the spec's message ('Knowledge base IDs are required for search').
    if (ids.length === 0) return forward(req, res, actor, '');
    const owners = await workspacesOf(ids);
    const missing = ids.find((id) => !owners[id]);
    if (missing) throw notFound(missing);
    const workspaces = [...new Set(Object.values(owners))];
    if (workspaces.length > 1) throw new AppError('validation', 'knowledgeBaseIds must all belong to one workspace');
    const workspaceId = workspaces[0] ?? '';
    await requireWorkspace(actor, workspaceId, 'read');
    return forward(req, res, actor, workspaceId);
  });

  r.all(['/knowledge/:id', '/knowledge/:id/*rest'], async (req: Request<{ id: string }>, res) => {
    const actor = await requireActor(auth, req);
    const workspaceId = (await workspacesOf([req.params.id]))[req.params.id];
    if (!workspaceId) throw notFound(req.params.id);
    await requireWorkspace(actor, workspaceId, req.method === 'GET' || req.method === 'HEAD' ? 'read' : 'write');
    await forward(req, res, actor, workspaceId);
  });

  return r;
}
