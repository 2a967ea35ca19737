import { Router } from 'express';
import { z } from 'zod';
import { AppError } from '@weft/platform';
import type { Clients } from '../clients.js';
import { requireActor, type Authenticator } from '../auth.js';
import { fromJson, parseBody } from '../validate.js';
import { withoutProtoKey } from '../wellFormedInput.js';

const environmentBody = z.object({ variables: withoutProtoKey('variables', z.record(z.string(), z.string('each value must be a string'), 'variables must be a map of name to value')) });
const toolsBody = z.object({ tools: z.array(z.unknown(), 'tools must be a list of custom tools') });

/** The caller's environment variables and custom tools. */
export function settingsRoutes(clients: Clients, auth: Authenticator): Router {
  const r = Router();

  r.get('/environment', async (req, res) => {
    const actor = await requireActor(auth, req);
    const { variables } = await clients.registry.getEnvironment({ actor });
    res.json({ data: Object.fromEntries(Object.entries(variables).map(([key, value]) => [key, { key, value }])) });
  });

  r.post('/environment', async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(environmentBody, req.body);
    await clients.registry.setEnvironment({ actor, variables: body.variables });
    res.json({ success: true });
  });

  r.get('/tools/custom', async (req, res) => {
    const actor = await requireActor(auth, req);
    const workflowId = typeof req.query.workflowId === 'string' && req.query.workflowId ? req.query.workflowId : undefined;
    const out = await clients.registry.listCustomTools({ actor, workflowId });
    res.json({ data: fromJson(out.toolsJson) });
  });

  r.post('/tools/custom', async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(toolsBody, req.body);
    const out = await clients.registry.upsertCustomTools({ actor, toolsJson: JSON.stringify(body.tools) });
    res.json({ success: true, data: fromJson(out.toolsJson) });
  });

  r.delete('/tools/custom', async (req, res) => {
    const actor = await requireActor(auth, req);
    const id = typeof req.query.id === 'string' ? req.query.id : '';
    if (!id) throw new AppError('validation', 'Tool id is required');
    await clients.registry.deleteCustomTool({ actor, toolId: id });
    res.json({ success: true });
  });

  return r;
}
