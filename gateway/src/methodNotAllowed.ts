import type { ApiRoute } from './routeTable.js';

/** An Express path pattern as a regular expression over a request path; none for patterns with wildcards or optional parts. */
function patternOf(path: string): RegExp | undefined {
  if (/[*{}()?+]/.test(path)) return undefined;
  const source = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.\\^$|[\]]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`, 'i');
}

/**
 * The methods the gateway answers at `path` (GET with HEAD), from its route table; empty when no
 * route has that path. A route taking any method (`ALL`) would have answered, so it adds none.
 */
export function allowedMethods(routes: readonly ApiRoute[], path: string): string[] {
  const methods = new Set<string>();
  for (const route of routes) {
    if (route.method === 'ALL' || !patternOf(route.path)?.test(path)) continue;
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
  }
  return [...methods];
}

/**
 * The answer to a request no route took: 405 with `Allow` when the path is a route's with other
 * methods (`GET /api/workflows/{id}/execute`: use POST), else the 404 naming method and path.
 */
export function unroutedAnswer(routes: readonly ApiRoute[], method: string, path: string): { status: number; allow?: string; error: string } {
  const allowed = allowedMethods(routes, path);
  if (allowed.length === 0) return { status: 404, error: `No route for ${method} ${path}` };
  return methodNotAllowed(method, path, allowed);
}

/** The 405 answer to `method` at `path`, which takes only `allowed`: the `Allow` header's value and the error naming them. */
export function methodNotAllowed(method: string, path: string, allowed: Iterable<string>): { status: 405; allow: string; error: string } {
  const allow = [...allowed].join(', ');
  return { status: 405, allow, error: `Method ${method} not allowed on ${path} (allowed: ${allow})` };
}
