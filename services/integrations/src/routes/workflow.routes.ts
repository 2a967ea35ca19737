import { randomUUID } from 'node:crypto';
import { AppError, createServiceClient, serviceAddress, type Config } from '@weft/platform';
import { editor, registry, runner } from '@weft/contracts';
import { ToolError } from '../tools/serviceTool.js';
import { json, objectBody, str, type Route } from './router.js';

/** The registry, editor and runner calls the workflow tools make (tests pass fakes with the same shape). */
export interface WorkflowSource {
  getWorkflow(req: { actor: { userId: string }; workflowId: string; access: string }): Promise<{ workflow?: registry.WorkflowEntry | undefined }>;
  exportYaml(req: { workflowId: string }): Promise<{ version: number; yamlContent: string }>;
  /** Starts a run through the runner (`wait` answers when it has ended). */
  startRun(req: runner.StartRunRequest, opts: { deadlineMs: number }): Promise<{ execution?: runner.Execution | undefined }>;
  /** Cancels a run (the executor's child, when the run that called the executor is cancelled). */
  cancelRun(req: { executionId: string; actorId: string }): Promise<unknown>;
}

/** How long a workflow run by the workflow executor tool may take before the call gives up. */
export const EXECUTOR_DEADLINE_MS = 10 * 60_000;

/** The registry's and editor's gRPC clients as a WorkflowSource. */
export function createWorkflowSource(config: Config): WorkflowSource & { close(): void } {
  const opts = { deadlineMs: config.GRPC_DEADLINE_MS };
  const reg = createServiceClient(registry.RegistryServiceService, serviceAddress(config, 'registry'), opts);
  const ed = createServiceClient(editor.EditorServiceService, serviceAddress(config, 'editor'), opts);
  const runs = createServiceClient(runner.RunServiceService, serviceAddress(config, 'runner'), opts);
  return {
    getWorkflow: (req) => reg.getWorkflow(req),
    exportYaml: (req) => ed.exportYaml(req),
    startRun: (req, callOpts) => runs.startRun(req, callOpts),
    cancelRun: (req) => runs.cancelExecution(req),
    close() {
      reg.close();
      ed.close();
      runs.close();
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
    {
      // `POST /api/tools/workflow-executor {workflowId, inputMapping}` (spec 001 §7): runs another workflow
      // of the caller's (write access, as running it from the editor needs) and answers when it ends.
      method: 'POST',
      path: '/tools/workflow-executor',
      async handle(req) {
        const body = objectBody(req.body);
        const workflowId = str(body, 'workflowId').trim();
        if (!workflowId) throw new ToolError('workflowId is required', 400);
        // A run calling its own workflow again would never end.
        if (req.context.executionId && workflowId === req.context.workflowId) throw new ToolError('A workflow cannot run itself through the workflow executor', 400);
        const input = inputOf(body.inputMapping);
        if (!req.context.actorId) throw new AppError('unauthenticated', 'No user is known for this call');
        const { workflow } = await source.getWorkflow({ actor: { userId: req.context.actorId }, workflowId, access: 'write' });
        if (!workflow) throw new AppError('not_found', `Workflow ${workflowId} not found`);
        const started = Date.now();
        // The child's id is chosen here, so a caller that gives up (its run cancelled) cancels the child too.
        const executionId = randomUUID();
        const actorId = req.context.actorId;
        const cancelChild = () => {
          source.cancelRun({ executionId, actorId }).catch(() => undefined);
        };
        req.signal?.throwIfAborted();
        req.signal?.addEventListener('abort', cancelChild, { once: true });
        let execution: runner.Execution | undefined;
        try {
          ({ execution } = await source.startRun(
            { workflowId, inputJson: JSON.stringify(input), actorId, trigger: 'workflow', workspaceId: workflow.workspaceId, wait: true, stream: false, executionId },
            { deadlineMs: EXECUTOR_DEADLINE_MS },
          ));
        } finally {
          req.signal?.removeEventListener('abort', cancelChild);
        }
        if (!execution) throw new AppError('internal', 'The runner answered without an execution');
        const success = execution.status === 'succeeded';
        return json({
          success,
          duration: execution.durationMs ?? Date.now() - started,
          childWorkflowId: workflowId,
          childWorkflowName: workflow.name,
          executionId: execution.executionId,
          result: execution.outputJson ? (JSON.parse(execution.outputJson) as unknown) : null,
          ...(success ? {} : { error: execution.error ?? 'Child workflow failed' }),
        });
      },
    },
  ];
}

/** The child's input: an object, or JSON text of one ('' is none). */
function inputOf(mapping: unknown): unknown {
  if (mapping === undefined || mapping === null) return {};
  if (typeof mapping !== 'string') return mapping;
  if (!mapping.trim()) return {};
  try {
    return JSON.parse(mapping) as unknown;
  } catch {
    throw new ToolError('inputMapping must be JSON', 400);
  }
}
