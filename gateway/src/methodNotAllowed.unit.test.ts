import { describe, expect, it } from 'vitest';
import { allowedMethods, unroutedAnswer } from './methodNotAllowed.js';

const routes = [
  { method: 'POST', path: '/api/workflows/:id/execute' },
  { method: 'GET', path: '/api/workflows/:id' },
  { method: 'PUT', path: '/api/workflows/:id' },
  { method: 'ALL', path: '/api/tools/*rest' },
  { method: 'ALL', path: '/api/memory/:id' },
];

describe('a request no route took', () => {
  it('is a 405 with Allow when its path is a route’s with other methods', () => {
    expect(unroutedAnswer(routes, 'GET', '/api/workflows/abc/execute')).toEqual({ status: 405, allow: 'POST', error: 'Method GET not allowed on /api/workflows/abc/execute (allowed: POST)' });
    expect(allowedMethods(routes, '/api/workflows/abc')).toEqual(['GET', 'HEAD', 'PUT']);
  });

  it('is a 404 for a path no route has (a parameter is one segment; routes taking any method add none)', () => {
    expect(unroutedAnswer(routes, 'GET', '/api/workflows/a/b/execute')).toEqual({ status: 404, error: 'No route for GET /api/workflows/a/b/execute' });
    expect(allowedMethods(routes, '/api/memory/x')).toEqual([]);
    expect(allowedMethods(routes, '/api/nothing')).toEqual([]);
  });
});
