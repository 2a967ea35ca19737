import { Router } from 'express';
import type { Clients } from '../clients.js';
import { requireActor, type Authenticator } from '../auth.js';

/** The caller's workspaces. */
export function workspaceRoutes(clients: Clients, auth: Authenticator): Router {
  const r = Router();
  r.get('/workspaces', async (req, res) => {
    const actor = await requireActor(auth, req);
    const { workspaces } = await clients.registry.listWorkspaces({ actor });
    res.json({ workspaces });
  });
  return r;
}
