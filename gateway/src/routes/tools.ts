import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { functionTimeoutError } from '@weft/catalog';
import { AppError } from '@weft/platform';
import type { integrations } from '@weft/contracts';
import type { Clients } from '../clients.js';
import { requireActor, type Actor, type Authenticator } from '../auth.js';
import type { AccessMode } from '../access.js';
import { fromJson, parseBody } from '../validate.js';
import { environmentOf, sendRoute, stringQuery, untilCallerLeaves } from './internalCall.js';
import { knowledgeRoutes } from './knowledge.js';
import { toolNeedsWrite } from './toolAccess.js';
import { functionDeadlineMs, httpToolDeadlineMs, routeDeadlineMs, toolDeadlineMs } from './toolDeadlines.js';

/** Function execute's default time limit (spec 000 §9). */
const DEFAULT_FUNCTION_TIMEOUT_MS = 10_000;

const record = (field: string) => z.record(z.string(), z.unknown(), `${field} must be an object`);
const functionBody = z.object({
  code: z.string({ error: 'code is required and must be a string' }),
  // A number or its text (a form field); anything else (true, [1]) is refused, not coerced.
  // The run's function block has the same rule (functionTimeoutError of @weft/catalog, 1..300000 ms).
  timeout: z
    .preprocess(
      (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
      z.custom<number>((v) => typeof v === 'number' && functionTimeoutError(v) === undefined, { error: (issue) => functionTimeoutError(issue.input) ?? 'timeout must be a number of milliseconds' }),
    )
    .optional(),
  envVars: z.record(z.string(), z.unknown(), 'envVars must be a map of name to value').optional(),
  blockData: record('blockData').optional(),
  blockNameMapping: z.record(z.string(), z.string('each blockNameMapping value must be a string'), 'blockNameMapping must be a map of name to block id').optional(),
  workflowId: z.string('workflowId must be a string').optional(),
  isCustomTool: z.boolean('isCustomTool must be true or false').optional(),
  params: record('params').optional(),
  schema: z.unknown().optional(),
});
const proxyBody = z.object({
  toolId: z.string({ error: 'toolId is required' }).min(1, 'toolId is required').max(200, 'toolId must be at most 200 characters'),
  params: record('params').optional(),
  workflowId: z.string('workflowId must be a string').optional(),
  skipPostProcess: z.boolean('skipPostProcess must be true or false').optional(),
});

type ToolContext = integrations.ToolCallContext;

/** The workflow a call runs for: its access checked through the registry (which answers its workspace). */
async function contextFor(clients: Clients, actor: Actor, workflowId: string | undefined, mode: AccessMode): Promise<ToolContext> {
  const base = { actorId: actor.userId };
  if (!workflowId) return { workspaceId: '', workflowId: '', ...base };
  const { workflow } = await clients.registry.getWorkflow({ actor, workflowId, access: mode });
  return { workspaceId: workflow?.workspaceId ?? '', workflowId, ...base };
}

/**
 * The workflow a call runs for: the one named by its query, its body or its params' `_context` (they
 * must agree: two different ones are refused naming both fields), else its params' workflowId. The
 * integrations service then works in that workflow only (memories, knowledge, a tool's context); a
 * params.workflowId beside it is another workflow only for the workflow executor, whose route checks it.
 */
function workflowIdOf(req: Request): string | undefined {
  const body = typeof req.body === 'object' && req.body !== null ? (req.body as Record<string, unknown>) : {};
  const params = typeof body.params === 'object' && body.params !== null ? (body.params as Record<string, unknown>) : {};
  const ctx = typeof params._context === 'object' && params._context !== null ? (params._context as Record<string, unknown>) : {};
  const candidates: Array<[string, unknown]> = [['the query', req.query.workflowId], ['the body', body.workflowId], ['params._context', ctx.workflowId]];
  const named = candidates.flatMap(([field, id]) => (typeof id === 'string' && id ? [{ field, id }] : []));
  const [first, ...rest] = named;
  const other = rest.find((n) => n.id !== first?.id);
  if (first && other) throw new AppError('validation', `workflowId in ${other.field} (${other.id}) does not match workflowId in ${first.field} (${first.id})`);
  if (first) return first.id;
  return typeof params.workflowId === 'string' && params.workflowId ? params.workflowId : undefined;
}


/**
 * The tool runtime over HTTP (spec 000 §7, 001 §7): function execute, the proxy (the HTTP request
 * tool and any tool by id), and the internal tool routes (memory, files, email, docs, proxy image and
 * speech, `/api/tools/*`, knowledge), all answered by the integrations service. Every call needs a
 * signed-in caller; a call that names a workflow needs access to it (write to change memories or
 * knowledge, directly or through a writing tool by the proxy; read otherwise), and runs in that
 * workflow's workspace. Each call waits as long as it may legitimately take (toolDeadlines.ts).
 */
export function toolRoutes(clients: Clients, auth: Authenticator): Router {
  const r = Router();

  r.post('/function/execute', async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(functionBody, req.body);
    await contextFor(clients, actor, body.workflowId, 'read');
    const timeoutMs = body.timeout ?? DEFAULT_FUNCTION_TIMEOUT_MS;
    const envVars = Object.fromEntries(Object.entries(body.envVars ?? {}).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
    const out = await clients.integrations.executeFunction({
      code: body.code,
      timeoutMs,
      paramsJson: JSON.stringify(body.params ?? {}),
      envVarsJson: JSON.stringify(envVars),
      blockDataJson: JSON.stringify(body.blockData ?? {}),
      blockNameMappingJson: JSON.stringify(body.blockNameMapping ?? {}),
      workflowId: body.workflowId ?? '',
      isCustomTool: body.isCustomTool ?? false,
      schemaJson: body.schema === undefined ? '' : JSON.stringify(body.schema),
    }, { deadlineMs: functionDeadlineMs(timeoutMs), signal: untilCallerLeaves(res) });
    res.json({
      success: out.success,
      output: { result: fromJson(out.resultJson), stdout: out.stdout },
      ...(out.error !== undefined ? { error: out.error } : {}),
      ...(out.debugJson ? { debug: fromJson(out.debugJson) } : {}),
    });
  });

  // The HTTP request tool from the browser: GET /api/proxy?url=&method=&body=&header.<name>=.
  r.get('/proxy', async (req, res) => {
    const actor = await requireActor(auth, req);
    const q = stringQuery(req);
    if (!q.url) throw new AppError('validation', 'url is required');
    const headers = Object.fromEntries(Object.entries(q).filter(([k]) => k.startsWith('header.')).map(([k, v]) => [k.slice('header.'.length), v]));
    const context = await contextFor(clients, actor, q.workflowId, 'read');
    const params: Record<string, unknown> = { url: q.url, method: q.method || 'GET', headers };
    if (q.body !== undefined) params.body = q.body;
    const out = await clients.integrations.executeTool(
      { toolId: 'http_request', paramsJson: JSON.stringify(params), context, envVars: {}, skipPostProcess: false },
      { deadlineMs: httpToolDeadlineMs(undefined), signal: untilCallerLeaves(res) },
    );
    res.type('application/json').send(out.resultJson);
  });

  // Any tool by id (catalogue or custom_…), answered as its tool result.
  r.post('/proxy', async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(proxyBody, req.body);
    const params = body.params ?? {};
    const context = await contextFor(clients, actor, workflowIdOf(req), toolNeedsWrite(body.toolId) ? 'write' : 'read');
    const envVars = await environmentOf(clients, actor);
    const out = await clients.integrations.executeTool(
      { toolId: body.toolId, paramsJson: JSON.stringify(params), context, envVars, skipPostProcess: body.skipPostProcess ?? false },
      { deadlineMs: toolDeadlineMs(body.toolId, params), signal: untilCallerLeaves(res) },
    );
    res.type('application/json').send(out.resultJson);
  });

  // The internal routes: the integrations service answers them as their HTTP routes.
  const internal = async (req: Request, res: Response, mode: AccessMode, withEnvironment = false) => {
    const actor = await requireActor(auth, req);
    const context = await contextFor(clients, actor, workflowIdOf(req), mode);
    const path = req.path;
    const deadlineMs = routeDeadlineMs(path);
    const answer = await clients.integrations.callRoute({
      method: req.method,
      path,
      query: stringQuery(req),
      bodyJson: req.method === 'GET' || req.method === 'HEAD' || req.body === undefined ? '' : JSON.stringify(req.body),
      context,
      envVars: withEnvironment ? await environmentOf(clients, actor) : {},
    }, { ...(deadlineMs === undefined ? {} : { deadlineMs }), signal: untilCallerLeaves(res) });
    sendRoute(res, answer);
  };
  const readOrWrite = (req: Request): AccessMode => (req.method === 'GET' || req.method === 'HEAD' ? 'read' : 'write');
  r.all(['/memory', '/memory/:id'], (req, res) => internal(req, res, readOrWrite(req)));
  r.post('/files/parse', (req, res) => internal(req, res, 'read'));
  r.post('/docs/search', (req, res) => internal(req, res, 'read'));
  r.get('/proxy/image', (req, res) => internal(req, res, 'read'));
  r.post('/proxy/tts', (req, res) => internal(req, res, 'read'));
  // Knowledge bases belong to workspaces: their own routes check the workspace (routes/knowledge.ts).
  r.use(knowledgeRoutes(clients, auth));
  // The local Ollama server's models (`{models: string[]}`), for the model pickers; none when it is unreachable.
  r.get('/providers/ollama/models', (req, res) => internal(req, res, 'read'));
  // Runs another workflow through the runner and answers when it ends (spec 001 §7): the integrations
  // service's route, so the tool answers the same through the proxy and inside a run.
  r.post('/tools/workflow-executor', (req, res) => internal(req, res, 'write'));

  // /api/tools/custom is the registry's (settings routes, mounted before these). Tool routes get the
  // caller's environment variables (a service key such as FIRECRAWL_API_KEY may come from there).
  r.all('/tools/*rest', (req, res) => internal(req, res, 'read', true));

  return r;
}
