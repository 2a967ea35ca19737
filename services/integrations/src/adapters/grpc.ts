import { AppError, type ServiceHandlers } from '@weft/platform';
import type { integrations, ExecuteToolInput, CallContext } from '@weft/contracts';
import type { SandboxPool } from '../function/sandbox.js';
import { executeFunctionRequest } from '../function/executeFunction.js';
import type { ToolExecutor } from '../tools/runtime/executeTool.js';
import type { InternalRoutes } from '../tools/runtime/types.js';

function parseJson(field: string, text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError('validation', `${field} must be JSON`);
  }
}

function parseObject(field: string, text: string): Record<string, unknown> {
  const value = parseJson(field, text);
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new AppError('validation', `${field} must be a JSON object`);
  return value as Record<string, unknown>;
}

function contextOf(ctx: integrations.ToolCallContext | undefined): CallContext {
  return {
    workspaceId: ctx?.workspaceId ?? '',
    workflowId: ctx?.workflowId ?? '',
    ...(ctx?.executionId ? { executionId: ctx.executionId } : {}),
    ...(ctx?.blockId ? { blockId: ctx.blockId } : {}),
    ...(ctx?.requestId ? { requestId: ctx.requestId } : {}),
    ...(ctx?.actorId ? { actorId: ctx.actorId } : {}),
  };
}

export interface GrpcDeps {
  sandbox: SandboxPool;
  tools: ToolExecutor;
  routes: InternalRoutes;
}

/** Synchronous tool calls over gRPC: function execute, one tool (the proxy) and the internal routes. */
export function integrationsHandlers(deps: GrpcDeps): ServiceHandlers<typeof integrations.IntegrationsServiceService> {
  return {
    // Each call stops its work when the caller goes away (ctx.signal: a cancelled call or a passed deadline).
    async executeFunction(req, ctx) {
      if (req.timeoutMs < 0) throw new AppError('validation', 'timeout must not be negative');
      const envVars = Object.fromEntries(Object.entries(parseObject('envVars', req.envVarsJson)).map(([k, v]) => [k, String(v)]));
      const res = await executeFunctionRequest(deps.sandbox, {
        code: req.code,
        timeout: req.timeoutMs,
        envVars,
        params: parseObject('params', req.paramsJson),
        blockData: parseObject('blockData', req.blockDataJson),
        blockNameMapping: Object.fromEntries(Object.entries(parseObject('blockNameMapping', req.blockNameMappingJson)).map(([k, v]) => [k, String(v)])),
        workflowId: req.workflowId,
        isCustomTool: req.isCustomTool,
        schema: parseJson('schema', req.schemaJson),
        signal: ctx.signal,
      });
      return {
        success: res.success,
        resultJson: JSON.stringify(res.output.result ?? null),
        stdout: res.output.stdout,
        error: res.error,
        debugJson: res.debug ? JSON.stringify(res.debug) : undefined,
      };
    },
    async executeTool(req, ctx) {
      if (!req.toolId) throw new AppError('validation', 'toolId is required');
      const input: ExecuteToolInput = {
        toolId: req.toolId,
        params: parseObject('params', req.paramsJson),
        context: contextOf(req.context),
        envVars: req.envVars,
        skipPostProcess: req.skipPostProcess,
      };
      return { resultJson: JSON.stringify(await deps.tools.execute(input, 'answer', ctx.signal)) };
    },
    async callRoute(req, ctx) {
      const answer = await deps.routes.handle({
        method: req.method || 'GET',
        path: req.path,
        query: req.query,
        body: parseJson('body', req.bodyJson),
        context: contextOf(req.context),
        envVars: req.envVars,
        signal: ctx.signal,
      });
      return {
        status: answer.status,
        bodyJson: answer.bytes ? '' : JSON.stringify(answer.body ?? null),
        body: answer.bytes ? Buffer.from(answer.bytes) : Buffer.alloc(0),
        contentType: answer.contentType ?? (answer.bytes ? 'application/octet-stream' : 'application/json'),
      };
    },
  };
}
