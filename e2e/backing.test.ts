import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureBackingServices, temporalBinaryPath } from '../infra/scripts/lib/backing.mjs';
import { freePort } from '../infra/scripts/lib/stack.mjs';

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

  it('starts its own Temporal dev server with its state in a write-ahead log, which it reads back after a restart', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'weft-backing-'));
    const port = await freePort();
    delete process.env.TEMPORAL_ADDRESS;
    const first = await ensureBackingServices({ root: dir, log: () => undefined, temporalPort: port });
    try {
      expect(first.env.TEMPORAL_ADDRESS).toBe(`127.0.0.1:${port}`);
      // WAL mode: commits append to temporal-<port>.db-wal instead of a journal written, synced and deleted each time.
      expect(existsSync(path.join(dir, '.data', `temporal-${port}.db-wal`))).toBe(true);
      const started = await withClient(first.env.TEMPORAL_ADDRESS, (client) => client.workflow.start('nobodyRunsThis', { taskQueue: 'none', workflowId: 'kept' }));
      await first.stop();
      await waitForClosed(port);
      const second = await ensureBackingServices({ root: dir, log: () => undefined, temporalPort: port });
      try {
        const described = await withClient(second.env.TEMPORAL_ADDRESS, (client) => client.workflow.getHandle('kept').describe());
        expect(described.runId).toBe(started.firstExecutionRunId);
      } finally {
        await second.stop();
      }
    } finally {
      await first.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('keeps the Temporal CLI outside the repository', () => {
    expect(temporalBinaryPath().startsWith(root)).toBe(false);
  });
});

async function withClient<T>(address: string, use: (client: Client) => Promise<T>): Promise<T> {
  const connection = await Connection.connect({ address });
  try {
    return await use(new Client({ connection }));
  } finally {
    await connection.close();
  }
}

/** Resolves once nothing listens on the port any more (the stopped server let go of its file). */
async function waitForClosed(port: number): Promise<void> {
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (!open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}
