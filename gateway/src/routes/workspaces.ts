import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { AppError } from '@weft/platform';
import type { Clients } from '../clients.js';
import { requireActor, type Authenticator } from '../auth.js';
import type { UserDirectory } from '../accounts/users.js';
import { parseBody } from '../validate.js';
import { initialWorkspaceName } from '../session.js';

const permission = z.enum(['admin', 'write', 'read'], "permission must be 'admin', 'write' or 'read'");
const nameBody = z.object({ name: z.string('name is required').min(1, 'name is required').max(200) });
const inviteBody = z.object({ email: z.string().email('email must be an email address'), permission: permission.default('read') });
const memberBody = z.object({ permission });

/** The 409 for an invitation of someone who is already a member of the workspace. */
export function alreadyMember(email: string): string {
  return `${email} is already a member of this workspace`;
}

/** Workspaces and their members; emails resolve to accounts through the gateway's user directory. */
export function workspaceRoutes(clients: Clients, auth: Authenticator, users: UserDirectory): Router {
  const r = Router();

  r.get('/workspaces', async (req, res) => {
    const actor = await requireActor(auth, req);
    let listed = await clients.registry.listWorkspaces({ actor });
    if (!listed.initialWorkspaceCreated) {
      // Sign-up could not create the first workspace (registry down then): create it now. The
      // registry creates it at most once per user, so concurrent lists make one.
      const user = (await users.byIds([actor.userId])).get(actor.userId);
      await clients.registry.ensureInitialWorkspace({ actor, name: initialWorkspaceName(user?.name ?? '') });
      listed = await clients.registry.listWorkspaces({ actor });
    }
    res.json({ workspaces: listed.workspaces });
  });

  r.post('/workspaces', async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(nameBody, req.body);
    const { workspace } = await clients.registry.createWorkspace({ actor, name: body.name });
    res.status(201).json({ workspace });
  });

  r.route('/workspaces/:id')
    .put(rename)
    .patch(rename);
  async function rename(req: Request<{ id: string }>, res: Response): Promise<void> {
    const actor = await requireActor(auth, req);
    const body = parseBody(nameBody, req.body);
    const { workspace } = await clients.registry.updateWorkspace({ actor, workspaceId: req.params.id, name: body.name });
    res.json({ workspace });
  }

  r.delete('/workspaces/:id', async (req, res) => {
    const actor = await requireActor(auth, req);
    await clients.registry.deleteWorkspace({ actor, workspaceId: req.params.id });
    res.json({ success: true });
  });

  r.get('/workspaces/:id/permissions', async (req, res) => {
    const actor = await requireActor(auth, req);
    const out = await clients.registry.getPermissions({ actor, workspaceId: req.params.id });
    const known = await users.byIds(out.members.map((m) => m.userId));
    res.json({
      permission: out.permission,
      members: out.members.map((m) => ({ userId: m.userId, email: known.get(m.userId)?.email ?? null, name: known.get(m.userId)?.name ?? null, permission: m.permission })),
    });
  });

  r.post('/workspaces/:id/members', async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(inviteBody, req.body);
    // Access first, so a non-admin learns nothing about which emails have accounts.
    const { permission: own } = await clients.registry.getPermissions({ actor, workspaceId: req.params.id });
    if (own !== 'admin') throw new AppError('forbidden', 'This action needs admin permission in the workspace');
    const user = await users.byEmail(body.email);
    if (!user) throw new AppError('not_found', `No account with email ${body.email}`);
    // An invitation adds a new member only: inviting a member again would silently change their
    // permission (that is PATCH .../members/{userId}). The registry checks in the transaction that
    // writes, so an invitation racing another for the same email is refused too.
    const { member } = await clients.registry
      .setMember({ actor, workspaceId: req.params.id, userId: user.id, permission: body.permission, mustExist: false, mustBeNew: true })
      .catch((err: unknown) => {
        if (err instanceof AppError && err.code === 'conflict' && err.details.userId === user.id) throw new AppError('conflict', alreadyMember(user.email), { field: 'email' });
        throw err;
      });
    res.status(201).json({ member: { ...member, email: user.email, name: user.name } });
  });

  r.patch('/workspaces/:id/members/:userId', async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(memberBody, req.body);
    // A change of a member's permission: anyone else (an unknown id, an account never invited, a
    // member removed meanwhile) is not made a member here — that is an invitation by email. The
    // registry checks membership in the transaction that writes (404 "userId … is not a member of
    // this workspace"), so a removal committed just before is not undone.
    const { member } = await clients.registry.setMember({ actor, workspaceId: req.params.id, userId: req.params.userId, permission: body.permission, mustExist: true, mustBeNew: false });
    res.json({ member });
  });

  r.delete('/workspaces/:id/members/:userId', async (req, res) => {
    const actor = await requireActor(auth, req);
    await clients.registry.removeMember({ actor, workspaceId: req.params.id, userId: req.params.userId });
    res.json({ success: true });
  });

  return r;
}
