import { Router } from 'express';

/** A named dependency check; resolves true when the dependency answers. */
export type HealthCheck = () => Promise<boolean>;

/** GET /api/health: 200 only when every dependency is up, else 503 naming what is down. */
export function healthRoutes(checks: Record<string, HealthCheck>): Router {
  const r = Router();
  r.get('/health', async (_req, res) => {
    const names = Object.keys(checks);
    const results = await Promise.all(names.map((n) => (checks[n] as HealthCheck)().catch(() => false)));
    const services = Object.fromEntries(names.map((n, i) => [n, results[i] ? 'up' : 'down']));
    const down = names.filter((_, i) => !results[i]);
    if (down.length === 0) res.json({ status: 'ok', services });
    else res.status(503).json({ status: 'unavailable', services, down, error: `Down: ${down.join(', ')}` });
  });
  return r;
}
