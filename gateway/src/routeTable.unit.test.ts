import { describe, expect, it } from 'vitest';
import express, { Router } from 'express';
import { routeTable } from './routeTable.js';

describe('routeTable', () => {
  it('lists the routes of nested routers under their mount path, each method once, and no app middleware', () => {
    const app = express();
    const inner = Router();
    inner.get('/things/:id', (_req, res) => void res.end());
    inner.route('/things/:id').put((_req, res) => void res.end()).patch((_req, res) => void res.end());
    inner.all(['/memory', '/memory/:id'], (_req, res) => void res.end());
    const hooks = Router();
    hooks.use('/webhooks/trigger', (_req, res) => void res.end());
    app.use('/api', express.json());
    app.use('/api', hooks);
    app.use('/api', inner);
    app.use('/api', inner);
    app.use('/api', (_req, res) => void res.status(404).end());
    app.get(/^(?!\/api\/).*/, (_req, res) => void res.end());
    expect(routeTable(app)).toEqual([
      { method: 'ALL', path: '/api/webhooks/trigger' },
      { method: 'GET', path: '/api/things/:id' },
      { method: 'PUT', path: '/api/things/:id' },
      { method: 'PATCH', path: '/api/things/:id' },
      { method: 'ALL', path: '/api/memory' },
      { method: 'ALL', path: '/api/memory/:id' },
    ]);
  });
});
