import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configSchema, type ServiceName } from './config.js';

// No Docker engine runs here, so the compose file is checked against the code instead.
const root = fileURLToPath(new URL('../../..', import.meta.url));
interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  container_name?: string;
  depends_on?: Record<string, unknown> | string[];
}
const compose = parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
const services = compose.services;
const weftServices = readdirSync(path.join(root, 'services')) as ServiceName[];
const processes = [...weftServices, 'gateway'];
const configKeys = new Set(Object.keys(configSchema.shape));

function hostPort(value: string): [string, string] {
  const u = new URL(value.includes('://') ? value : `tcp://${value}`);
  return [u.hostname, u.port];
}

describe('docker-compose.yml', () => {
  it('runs the backing services and the Temporal UI', () => {
    expect(Object.keys(services)).toEqual(expect.arrayContaining(['postgres', 'nats', 'temporal', 'temporal-ui']));
    expect(services.nats?.command).toContain('-js');
    expect(services.temporal?.image).toMatch(/^temporalio\/auto-setup/);
    expect(services.temporal?.environment?.POSTGRES_SEEDS).toBe('postgres');
  });

  it.each(processes)('builds %s from the repo Dockerfile and starts its built entry point', (name) => {
    const svc = services[name];
    expect(svc, `${name} is missing`).toBeDefined();
    expect(svc?.build?.dockerfile).toBe('Dockerfile');
    expect(existsSync(path.join(root, svc?.build?.dockerfile ?? ''))).toBe(true);
    const entry = svc?.command?.[1] ?? '';
    const dir = name === 'gateway' ? 'gateway' : `services/${name}`;
    expect(entry).toBe(`${dir}/dist/main.js`);
    expect(existsSync(path.join(root, dir, 'src/main.ts'))).toBe(true);
  });

  it.each(processes)('gives %s only variables the config knows, pointing at services that exist', (name) => {
    const env = services[name]?.environment ?? {};
    for (const key of Object.keys(env)) expect(configKeys.has(key), `${name}: unknown variable ${key}`).toBe(true);
    expect(hostPort(env.DATABASE_URL ?? '')[0]).toBe('postgres');
    expect(env.DATABASE_URL).toContain(`${services.postgres?.environment?.POSTGRES_USER}:${services.postgres?.environment?.POSTGRES_PASSWORD}@`);
    expect(hostPort(env.NATS_URL ?? '')[0]).toBe('nats');
    expect(hostPort(env.TEMPORAL_ADDRESS ?? '')).toEqual(['temporal', '7233']);
    for (const target of weftServices) {
      const [host, port] = hostPort(env[`${target.toUpperCase()}_ADDR`] ?? '');
      expect(host, `${name} dials ${target}`).toBe(target);
      // The dialled port is the one the target binds.
      expect(hostPort(services[target]?.environment?.GRPC_LISTEN ?? '')[1]).toBe(port);
    }
  });

  it('lets integrations scale: no fixed name and no host ports', () => {
    expect(services.integrations?.container_name).toBeUndefined();
    expect(services.integrations?.ports).toBeUndefined();
  });

  it('publishes the gateway on its PORT', () => {
    const port = services.gateway?.environment?.PORT;
    expect(services.gateway?.ports).toContain(`${port}:${port}`);
  });
});
