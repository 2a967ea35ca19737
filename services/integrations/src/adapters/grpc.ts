import { AppError, type ServiceHandlers } from '@weft/platform';
import type { integrations } from '@weft/contracts';
import { executeFunction } from '../activities/index.js';
import { DEFAULT_FUNCTION_TIMEOUT_MS } from '../function/sandbox.js';

function parseObject(field: string, text: string): Record<string, unknown> {
  if (!text) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('validation', `${field} must be JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new AppError('validation', `${field} must be a JSON object`);
  return value as Record<string, unknown>;
}

/** Synchronous tool calls over gRPC (the /api/function/execute path). */
export function integrationsHandlers(): ServiceHandlers<typeof integrations.IntegrationsServiceService> {
  return {
    async executeFunction(req) {
      if (req.timeoutMs < 0) throw new AppError('validation', 'timeout must not be negative');
      const envVars = Object.fromEntries(Object.entries(parseObject('envVars', req.envVarsJson)).map(([k, v]) => [k, String(v)]));
      const res = await executeFunction({
        code: req.code,
        params: parseObject('params', req.paramsJson),
        envVars,
        timeoutMs: req.timeoutMs || DEFAULT_FUNCTION_TIMEOUT_MS,
      });
      return { success: res.success, resultJson: JSON.stringify(res.output.result ?? null), stdout: res.output.stdout, error: res.error };
    },
  };
}
