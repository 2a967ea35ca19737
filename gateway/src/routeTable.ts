import type { Express } from 'express';

/** A route the gateway answers: its method (`ALL` for any) and its Express path pattern. */
export interface ApiRoute {
  method: string;
  path: string;
}

/** What the walk reads of an Express layer (router@2): its mount path and its route or nested router. */
interface LayerView {
  rawPath?: unknown;
  route?: { path?: unknown; methods?: Record<string, unknown> };
  handle?: { stack?: unknown };
}

function isLayer(value: unknown): value is LayerView {
  return typeof value === 'object' && value !== null;
}

function pathsOf(raw: unknown): string[] {
  const all = Array.isArray(raw) ? raw : [raw];
  return all.filter((p): p is string => typeof p === 'string');
}

function join(prefix: string, path: string): string {
  return path === '/' ? prefix || '/' : `${prefix}${path}`;
}

function walk(stack: unknown, prefix: string, out: ApiRoute[]): void {
  if (!Array.isArray(stack)) return;
  for (const layer of stack) {
    if (!isLayer(layer)) continue;
    if (layer.route) {
      const methods = Object.keys(layer.route.methods ?? {}).map((m) => (m === '_all' ? 'ALL' : m.toUpperCase()));
      for (const path of pathsOf(layer.route.path)) for (const method of methods) out.push({ method, path: join(prefix, path) });
      continue;
    }
    const mounts = pathsOf(layer.rawPath).filter((p) => p !== '/');
    if (Array.isArray(layer.handle?.stack)) {
      // A nested router: its routes under its mount path (a router mounted at / keeps the prefix).
      for (const mount of mounts.length > 0 ? mounts : ['']) walk(layer.handle.stack, `${prefix}${mount}`, out);
    } else if (prefix !== '') {
      // A handler a router mounts at a path with `use` (the webhooks) answers every method below it;
      // the app's own (the body parser, the 404 answer) are no routes.
      for (const mount of mounts) out.push({ method: 'ALL', path: `${prefix}${mount}` });
    }
  }
}

/**
 * Every route of `app` with its method and path pattern, read from its router stack, in the order
 * they match (`ALL` for a route or mounted handler that takes any method); the /api answers of
 * GET /api/routes. Routes given as regular expressions (the web app's fallback) are left out.
 */
export function routeTable(app: Express): ApiRoute[] {
  const out: ApiRoute[] = [];
  walk(app.router.stack, '', out);
  const seen = new Set<string>();
  return out.filter((r) => {
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
