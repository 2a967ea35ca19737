import { Router } from 'express';
import { z } from 'zod';
import { AppError } from '@weft/platform';
import type { registry } from '@weft/contracts';
import type { Clients } from '../clients.js';
import { requireActor, type Authenticator } from '../auth.js';
import { parseBody } from '../validate.js';
import { stringQuery } from './internalCall.js';

const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'color must be a hex colour such as #3972F6');
const createFolderBody = z.object({
  workspaceId: z.string('workspaceId is required').min(1, 'workspaceId is required').max(200),
  name: z.string('name is required').min(1, 'name is required').max(200),
  parentId: z.string().min(1).max(200).nullable().optional(),
  color: color.optional(),
});
const updateFolderBody = z.object({
  name: z.string().min(1, 'name must not be empty').max(200).optional(),
  parentId: z.string().min(1).max(200).nullable().optional(),
  color: color.optional(),
  isExpanded: z.boolean().optional(),
});

function folder(f: registry.Folder | undefined) {
  if (!f) throw new AppError('internal', 'The registry answered without a folder');
  return { ...f, parentId: f.parentId ?? null };
}

/** Folders of a workspace, nested through parentId. */
export function folderRoutes(clients: Clients, auth: Authenticator): Router {
  const r = Router();

  r.get('/folders', async (req, res) => {
    const actor = await requireActor(auth, req);
    const workspaceId = stringQuery(req).workspaceId ?? '';
    if (!workspaceId) throw new AppError('validation', 'workspaceId is required');
    const out = await clients.registry.listFolders({ actor, workspaceId });
    res.json({ folders: out.folders.map(folder) });
  });

  r.post('/folders', async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(createFolderBody, req.body);
    const out = await clients.registry.createFolder({ actor, workspaceId: body.workspaceId, name: body.name, parentId: body.parentId ?? undefined, color: body.color });
    res.status(201).json({ folder: folder(out.folder) });
  });

  r.put('/folders/:id', async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(updateFolderBody, req.body);
    const out = await clients.registry.updateFolder({
      actor,
      folderId: req.params.id,
      name: body.name,
      parentId: body.parentId ?? undefined,
      clearParent: body.parentId === null,
      color: body.color,
      isExpanded: body.isExpanded,
    });
    res.json({ folder: folder(out.folder) });
  });

  r.delete('/folders/:id', async (req, res) => {
    const actor = await requireActor(auth, req);
    await clients.registry.deleteFolder({ actor, folderId: req.params.id });
    res.json({ success: true });
  });

  return r;
}
