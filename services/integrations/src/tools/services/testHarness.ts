import type { CallContext } from '@weft/contracts';
import { ToolError, type ServiceTool, type ToolIO } from '../serviceTool.js';

/** What a tool answered, the way the execution layer wraps it (timing left out). */
export type HarnessResult = { success: true; output: unknown } | { success: false; output: Record<string, never>; error: string };

const LOCAL = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * A ToolIO over plain fetch for tests: every service a tool asks for must be pointed at a fake
 * (`baseUrls`), and requests to anything but the loopback address are refused, so no test reaches a
 * real host.
 */
export function createTestIO(baseUrls: Record<string, string>, context: Partial<CallContext> = {}): ToolIO {
  return {
    async fetch(url, init = {}) {
      const target = new URL(url);
      if (!LOCAL.has(target.hostname)) throw new Error(`test harness refused a request to ${target.host}`);
      const req: RequestInit = { method: init.method ?? 'GET', signal: AbortSignal.timeout(init.timeoutMs ?? 10_000) };
      if (init.headers) req.headers = init.headers;
      if (init.body !== undefined) req.body = init.body;
      return fetch(url, req);
    },
    baseUrl(service) {
      const url = baseUrls[service];
      if (url === undefined) throw new Error(`test did not point service "${service}" at a fake`);
      return url;
    },
    context: { workspaceId: 'ws-test', workflowId: 'wf-test', ...context },
    envVars: {},
  };
}

/** Runs a service tool as the execution layer does: output on success, the ToolError's message on failure. */
export async function runServiceTool(tool: ServiceTool | undefined, params: Record<string, unknown>, io: ToolIO): Promise<HarnessResult> {
  if (!tool) throw new Error('no such service tool');
  try {
    return { success: true, output: await tool.execute(params, io) };
  } catch (err) {
    if (err instanceof ToolError) return { success: false, output: {}, error: err.message };
    throw err;
  }
}
