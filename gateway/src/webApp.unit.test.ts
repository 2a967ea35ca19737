import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webAppRoutes } from './webApp.js';

describe('the built web app as the gateway serves it', () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'weft-web-'));
  let server: Server;
  let base = '';
  beforeAll(async () => {
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'assets', 'SettingsPage-abc.js'), 'export const x = 1;');
    const app = express();
    app.use(webAppRoutes(dist));
    server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves a file of the build as itself', async () => {
    const res = await fetch(`${base}/assets/SettingsPage-abc.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(await res.text()).toBe('export const x = 1;');
  });

  it('answers 404 for a file under /assets/ the build does not have (a chunk of an older build), not index.html', async () => {
    const res = await fetch(`${base}/assets/SettingsPage-old.js`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('<div id="root">');
  });

  it('answers index.html for the app’s own routes', async () => {
    for (const route of ['/', '/settings/environment', '/w/abc']) {
      const res = await fetch(`${base}${route}`);
      expect(res.status, route).toBe(200);
      expect(await res.text()).toContain('<div id="root">');
    }
  });
});
