import { Router } from 'express';
import { z } from 'zod';
import { AppError, toAppError } from '@weft/platform';
import type { Clients } from '../clients.js';
import { requireActor, type Actor, type Authenticator } from '../auth.js';
import { fromJson, parseBody } from '../validate.js';
import type { AccessChecker, AccessMode } from '../access.js';
import { withSnapshotDeploymentFlags } from './deploymentFlags.js';
import { yamlSavedAnswer } from './yamlSaved.js';
import { withoutProtoKey } from '../wellFormedInput.js';

const variablesBody = z.object({ variables: z.array(withoutProtoKey('a variable', z.record(z.string(), z.unknown()))) });

const yamlBody = z.object({
  yamlContent: z.string(),
  description: z.string().max(2000).optional(),
  chatId: z.string().max(200).optional(),
  source: z.string().max(200).optional(),
  applyAutoLayout: z.boolean().optional(),
  createCheckpoint: z.boolean().optional(),
});

/** The spec's whole-state save: workflow id → workflow (its graph under `state`, or the graph itself). */
const syncBody = z.object({
  workspaceId: z.string().min(1, 'workspaceId is required').max(200),
  workflows: withoutProtoKey(
    'workflows',
    z.record(
      z.string(),
      z.looseObject({
        state: z.looseObject({ blocks: z.unknown(), edges: z.unknown() }).optional(),
        blocks: z.unknown().optional(),
        edges: z.unknown().optional(),
      }),
    ),
  ),
});

/**
 * Editor routes beside the workflow routes: the full state, history, variables, YAML and the whole-state sync.
 * (Revert to deployed goes through the registry, which holds the deployed state and passes it to the
 * editor's ExecuteCommands as deployed_state_json.)
 */
export function editorRoutes(clients: Clients, auth: Authenticator, checker: AccessChecker): Router {
  const r = Router();

  async function access(req: { params: { id: string } }, actor: Actor, mode: AccessMode): Promise<string> {
    await checker.require(actor, req.params.id, mode);
    return req.params.id;
  }

  /**
   * The full state with its undo history, lean-encoded (decodeSnapshot in @weft/workflow), so a client
   * follows events from `version`; its deployment flags are the registry's, as GET /api/workflows/{id}'s are.
   */
  r.get('/workflows/:id/state', async (req, res) => {
    const actor = await requireActor(auth, req);
    // The registry's answer is the read check and the flags at once (read now: a deploy just answered shows).
    const { workflow } = await clients.registry.getWorkflow({ actor, workflowId: req.params.id, access: 'read' });
    if (!workflow) throw new AppError('not_found', `Workflow ${req.params.id} not found`);
    const out = await clients.editor.getFullState({ workflowId: workflow.id });
    res.json({ version: out.version, state: withSnapshotDeploymentFlags(fromJson(out.stateJson), workflow) });
  });

  r.get('/workflows/:id/history', async (req, res) => {
    const workflowId = await access(req, await requireActor(auth, req), 'read');
    const out = await clients.editor.getHistory({ workflowId });
    res.json({ ...(fromJson(out.historyJson) as object), version: out.version });
  });

  r.get('/workflows/:id/variables', async (req, res) => {
    const workflowId = await access(req, await requireActor(auth, req), 'read');
    const out = await clients.editor.getVariables({ workflowId });
    res.json({ data: fromJson(out.variablesJson), version: out.version });
  });

  r.post('/workflows/:id/variables', async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(variablesBody, req.body);
    const workflowId = await access(req, actor, 'write');
    const out = await clients.editor.executeCommands({
      workflowId,
      commandsJson: JSON.stringify([{ type: 'replaceVariables', variables: body.variables }]),
      actorId: actor.userId,
    });
    const vars = await clients.editor.getVariables({ workflowId });
    res.json({ success: true, data: fromJson(vars.variablesJson), version: out.version });
  });

  r.get('/workflows/:id/yaml', async (req, res) => {
    const workflowId = await access(req, await requireActor(auth, req), 'read');
    const out = await clients.editor.exportYaml({ workflowId });
    res.json({ success: true, yaml: out.yamlContent, version: out.version });
  });

  r.put('/workflows/:id/yaml', async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(yamlBody, req.body);
    const workflowId = await access(req, actor, 'write');
    const command = {
      type: 'importYaml',
      yamlContent: body.yamlContent,
      ...(body.description === undefined ? {} : { description: body.description }),
      applyAutoLayout: body.applyAutoLayout ?? false,
      createCheckpoint: body.createCheckpoint ?? false,
    };
    try {
      if (body.chatId !== undefined && body.createCheckpoint === true) {
        // An edit of a copilot chat (spec 000 §7: the copilot's save): the state before it becomes that chat's checkpoint.
        const saved = await clients.copilot.saveYamlInChat({
          chatId: body.chatId,
          workflowId,
          actorId: actor.userId,
          yamlContent: body.yamlContent,
          description: body.description,
          applyAutoLayout: command.applyAutoLayout,
        });
        res.json(yamlSavedAnswer({ version: saved.version, blocks: saved.blocks, edges: saved.edges, checkpointId: saved.checkpointId, warnings: saved.warnings }));
        return;
      }
      const out = await clients.editor.executeCommands({ workflowId, commandsJson: JSON.stringify([command]), actorId: actor.userId });
      const events = fromJson(out.eventsJson) as Array<{ data: { blocks?: object; edges?: unknown[]; warnings?: string[] } }>;
      const imported = events[0]?.data;
      const blocks = Object.keys(imported?.blocks ?? {}).length;
      res.json(yamlSavedAnswer({ version: out.version, blocks, edges: imported?.edges?.length ?? 0, warnings: imported?.warnings }));
    } catch (err) {
      const appErr = toAppError(err);
      if (appErr.code !== 'validation') throw err;
      res.status(400).json({ success: false, message: appErr.message });
    }
  });

  r.post('/tools/get-yaml-structure', async (req, res) => {
    await requireActor(auth, req);
    const out = await clients.editor.getYamlStructure({});
    res.json({ success: true, data: fromJson(out.guideJson) });
  });

  r.post('/workflows/sync', async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(syncBody, req.body);
    const results: Record<string, { version: number } | { error: string }> = {};
    for (const [workflowId, workflow] of Object.entries(body.workflows)) {
      try {
        const { workflow: entry } = await clients.registry.getWorkflow({ actor, workflowId, access: 'write' });
        if (!entry || entry.workspaceId !== body.workspaceId) throw new AppError('not_found', `Workflow ${workflowId} not found`);
        const graph = workflow.state ?? workflow;
        const out = await clients.editor.executeCommands({
          workflowId,
          commandsJson: JSON.stringify([{ type: 'replaceState', blocks: graph.blocks ?? {}, edges: graph.edges ?? [] }]),
          actorId: actor.userId,
        });
        results[workflowId] = { version: out.version };
      } catch (err) {
        const appErr = toAppError(err);
        if (appErr.code === 'internal' || appErr.code === 'unavailable' || appErr.code === 'timeout') throw err;
        results[workflowId] = { error: appErr.message };
      }
    }
    res.json({ success: Object.values(results).every((v) => 'version' in v), results });
  });

  return r;
}
