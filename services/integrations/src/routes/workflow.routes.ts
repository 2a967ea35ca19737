import { AppError, createServiceClient, serviceAddress, type Config } from '@weft/platform';
import { editor, registry } from '@weft/contracts';
import { ToolError } from '../tools/serviceTool.js';
import { json, objectBody, str, type Route } from './router.js';

/** The registry and editor calls `get-user-workflow` makes (tests pass fakes with the same shape). */
export interface WorkflowSource {
  getWorkflow(req: { actor: { userId: string }; workflowId: string; access: string }): Promise<{ workflow?: registry.WorkflowEntry | undefined }>;
  exportYaml(req: { workflowId: string }): Promise<{ version: number; yamlContent: string }>;
}

/** The registry's and editor's gRPC clients as a WorkflowSource. */
export function createWorkflowSource(config: Config): WorkflowSource & { close(): void } {
  const opts = { deadlineMs: config.GRPC_DEADLINE_MS };
  const reg = createServiceClient(registry.RegistryServiceService, serviceAddress(config, 'registry'), opts);
  const ed = createServiceClient(editor.EditorServiceService, serviceAddress(config, 'editor'), opts);
  return {
    getWorkflow: (req) => reg.getWorkflow(req),
    exportYaml: (req) => ed.exportYaml(req),
    close() {
      reg.close();
      ed.close();
    },
  };
}

/**
 * `POST /api/tools/get-user-workflow {workflowId, includeMetadata}` (spec 001 §7): the workflow as YAML
 * (the editor's export, the copilot's format), `{success, output {workflowId, yaml, version, metadata?}}`.
 * The workflow defaults to the one the call runs for; the acting user needs read access (the registry
 * checks it, so a tool inside one workflow cannot read another it has no access to).
 */
export function workflowRoutes(source: WorkflowSource): Route[] {
  return [
    {
      method: 'POST',
      path: '/tools/get-user-workflow',
      async handle(req) {
        const body = objectBody(req.body);
        const workflowId = str(body, 'workflowId').trim() || req.context.workflowId;
        if (!workflowId) throw new ToolError('workflowId is required', 400);
        const flag = body.includeMetadata;
        if (flag !== undefined && typeof flag !== 'boolean' && flag !== 'true' && flag !== 'false') throw new ToolError('includeMetadata must be true or false', 400);
        if (!req.context.actorId) throw new AppError('unauthenticated', 'No user is known for this call');
        const { workflow } = await source.getWorkflow({ actor: { userId: req.context.actorId }, workflowId, access: 'read' });
        if (!workflow) throw new AppError('not_found', `Workflow ${workflowId} not found`);
        const { yamlContent, version } = await source.exportYaml({ workflowId });
        const metadata = {
          name: workflow.name,
          description: workflow.description,
          color: workflow.color,
          workspaceId: workflow.workspaceId,
          folderId: workflow.folderId ?? null,
          isDeployed: workflow.isDeployed,
          deployedAt: workflow.deployedAt ?? null,
          createdAt: workflow.createdAt,
          updatedAt: workflow.updatedAt,
        };
        return json({ success: true, output: { workflowId, yaml: yamlContent, version: Number(version), ...(flag === true || flag === 'true' ? { metadata } : {}) } });
      },
    },
  ];
}
