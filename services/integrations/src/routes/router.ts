import { AppError, ERROR_MAP, isCodedError, type Logger } from '@weft/platform';
import { ToolError } from '../tools/serviceTool.js';
import type { InternalRoutes, RouteAnswer, RouteRequest } from '../tools/runtime/types.js';
import { TransientToolError, errorMessage, forLog } from '../tools/runtime/errors.js';

/** One internal route: `path` with `:name` segments. */
export interface Route {
  method: string;
  path: string;
  handle(req: RouteRequest, params: Record<string, string>): Promise<RouteAnswer>;
}

/** A JSON answer. */
export function json(body: unknown, status = 200): RouteAnswer {
  return { status, body };
}

function compile(path: string): RegExp {
  const src = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([A-Za-z_]+)/g, '(?<$1>[^/]+)');
  return new RegExp(`^${src}/?$`);
}

/**
 * The internal tool routes' dispatcher: internal tools call it directly and the gateway reaches it
 * over gRPC (CallRoute). Errors answer `{error}` with the status of their code; unexpected ones 500.
 */
export function createRouter(routes: Route[], logger: Logger): InternalRoutes {
  const table = routes.map((r) => ({ ...r, pattern: compile(r.path) }));
  return {
    async handle(req) {
      const candidates = table.filter((r) => r.pattern.test(req.path));
      const route = candidates.find((r) => r.method === req.method.toUpperCase());
      if (!route) {
        return candidates.length > 0 ? json({ error: `Method ${req.method} not allowed on /api${req.path}` }, 405) : json({ error: `No route for ${req.method} /api${req.path}` }, 404);
      }
      const m = route.pattern.exec(req.path);
      const params = Object.fromEntries(Object.entries(m?.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)]));
      try {
        return await route.handle(req, params);
      } catch (err) {
        if (err instanceof ToolError) return json({ success: false, error: err.message }, err.status && err.status >= 400 ? err.status : 400);
        // A service that failed transiently (network, timeout, 429, 5xx): the caller may try again.
        if (err instanceof TransientToolError) return json({ success: false, error: err.message }, err.status === 429 ? 429 : 502);
        if (isCodedError(err)) return json({ success: false, error: err.message, ...err.details }, ERROR_MAP[err.code].http);
        logger.error({ err: forLog(errorMessage(err)), path: req.path }, 'internal route failed');
        return json({ success: false, error: 'Internal server error' }, 500);
      }
    },
  };
}

/** A body field as a string ('' when absent or not a string). */
export function str(body: unknown, key: string): string {
  if (typeof body !== 'object' || body === null) return '';
  const v = (body as Record<string, unknown>)[key];
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/** The body as an object (a bad body is a validation error naming it). */
export function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new AppError('validation', 'body must be a JSON object');
  return body as Record<string, unknown>;
}

/** Whether `value` is an absolute http(s) URL that parses (what the outbound client can fetch). */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}
