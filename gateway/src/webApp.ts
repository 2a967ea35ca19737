import path from 'node:path';
import express, { type Router } from 'express';

/**
 * Serves the built web app in `dist`: its files as they are; a missing file under /assets/ answers
 * 404, so a lazily imported chunk of an older build fails as a load error the page can show instead
 * of parsing index.html as code; any other path outside /api/ gets index.html (the app's routes).
 */
export function webAppRoutes(dist: string): Router {
  const routes = express.Router();
  const index = path.join(dist, 'index.html');
  routes.use(express.static(dist, { index: false }));
  routes.use('/assets', (req, res) => res.status(404).type('text/plain').send(`Not found: ${req.originalUrl}`));
  routes.get(/^(?!\/api\/).*/, (_req, res) => res.sendFile(index));
  return routes;
}
