import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureBackingServices, temporalBinaryPath } from '../infra/scripts/lib/backing.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const saved = { ...process.env };

describe('bringing up the backing services', () => {
  afterEach(() => {
    process.env = { ...saved };
  });

  it('uses the services named by the environment when they answer', async () => {
    const { env } = await ensureBackingServices({ root, log: () => undefined });
    expect(env.DATABASE_URL).toBe(process.env.DATABASE_URL);
    expect(env.NATS_URL).toBe(process.env.NATS_URL);
    expect(env.TEMPORAL_ADDRESS).toBe(process.env.TEMPORAL_ADDRESS);
  });

  it.each([
    ['DATABASE_URL', 'postgres://postgres@127.0.0.1:1/weft', 'PostgreSQL is not reachable at 127.0.0.1:1'],
    ['NATS_URL', 'nats://127.0.0.1:1', 'NATS is not reachable at 127.0.0.1:1'],
    ['TEMPORAL_ADDRESS', '127.0.0.1:1', 'Temporal is not reachable at 127.0.0.1:1'],
  ])('names the service, the address and what to do when %s does not answer', async (key, value, message) => {
    process.env[key] = value;
    await expect(ensureBackingServices({ root, log: () => undefined })).rejects.toThrow(new RegExp(`^${message}\\. Check `));
  });

  it('keeps the Temporal CLI outside the repository', () => {
    expect(temporalBinaryPath().startsWith(root)).toBe(false);
  });
});
