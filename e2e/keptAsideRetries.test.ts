import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { createFakeServer, type FakeServer } from '@weft/testkit';
import { api } from './support/http.js';
import { workflowWith } from './support/runStream.js';

// The stack allows 127.0.0.1 as an outbound address (globalSetup), so the API block reaches this fake.
let fake: FakeServer;
beforeAll(async () => {
  fake = await createFakeServer();
});
afterAll(async () => {
  await fake?.close();
});

/** The runner's stored values of `executionId` whose JSON text holds `marker` (the runner's schema found by its table). */
async function storedValuesHolding(executionId: string, marker: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: inject('weftEnv').DATABASE_URL });
  await client.connect();
  try {
    const schema = (await client.query<{ table_schema: string }>("select table_schema from information_schema.tables where table_name = 'run_blobs'")).rows[0]?.table_schema ?? 'runner';
    const rows = await client.query<{ text: string }>(`select value::text as text from "${schema}".run_blobs where execution_id = $1 and value::text like $2`, [executionId, `%${marker}%`]);
    return rows.rows.map((r) => r.text);
  } finally {
    await client.end();
  }
}

interface Log {
  blockId: string;
  success: boolean;
  attempts?: number;
  output?: { data?: string; status?: number };
}

describe('a large failing answer of a retried block', () => {
  it('is kept aside once for all its tries: the last try’s body, one stored value, shown whole in the log', async () => {
    let tries = 0;
    // 300 KB, past the run's 256 KB threshold: each try's body names the try.
    fake.on('GET', '/busy', () => ({ status: 503, json: `try ${++tries}:`.padEnd(300_000, 'z') }));
    const { id } = await workflowWith((starter) => [
      { type: 'addBlock', id: 'fetch', blockType: 'api', name: 'Fetch', position: { x: 400, y: 100 } },
      { type: 'setSubBlockValue', id: 'fetch', subBlockId: 'url', value: `${fake.url}/busy` },
      { type: 'setSubBlockValue', id: 'fetch', subBlockId: 'method', value: 'GET' },
      { type: 'addEdge', source: starter, target: 'fetch' },
    ]);
    const run = await api<{ success: boolean; error?: string; metadata: { executionId: string } }>('POST', `/api/workflows/${id}/execute`, {});
    expect(run.body).toMatchObject({ success: false, error: expect.stringContaining('503') });
    expect(tries).toBe(3);
    const stored = await api<{ logs: Log[] }>('GET', `/api/executions/${run.body.metadata.executionId}`);
    const fetchLog = stored.body.logs.find((l) => l.blockId === 'fetch');
    expect(fetchLog).toMatchObject({ success: false, attempts: 3, output: { status: 503 } });
    expect(fetchLog?.output?.data?.startsWith('try 3:')).toBe(true);
    expect(fetchLog?.output?.data).toHaveLength(300_000);
    // Three tries of a 300 KB answer kept 300 KB, not 900 KB: every try wrote the same slot.
    const kept = await storedValuesHolding(run.body.metadata.executionId, 'zzzzzzzzzz');
    expect(kept.map((text) => text.slice(0, 8))).toEqual(['"try 3:z']);
  });

  it('is one slot per call, not per block: each iteration of a loop keeps its own large output', async () => {
    const { id } = await workflowWith((starter) => [
      { type: 'addBlock', id: 'loop', blockType: 'loop', name: 'Loop', position: { x: 400, y: 100 }, data: { loopType: 'for', count: 3 } },
      { type: 'addEdge', source: starter, target: 'loop' },
      { type: 'addBlock', id: 'big', blockType: 'function', name: 'Big', position: { x: 50, y: 50 }, parentId: 'loop' },
      { type: 'setSubBlockValue', id: 'big', subBlockId: 'code', value: 'return "iteration " + <loop.index> + ":" + "y".repeat(300000)' },
      { type: 'addEdge', source: 'loop', target: 'big', sourceHandle: 'loop-start-source' },
    ]);
    const run = await api<{ success: boolean; metadata: { executionId: string } }>('POST', `/api/workflows/${id}/execute`, {});
    expect(run.body.success).toBe(true);
    const stored = await api<{ logs: Array<{ blockId: string; output?: { result?: string } }> }>('GET', `/api/executions/${run.body.metadata.executionId}`);
    const results = stored.body.logs.filter((l) => l.blockId === 'big').map((l) => l.output?.result?.slice(0, 12));
    expect(results.sort()).toEqual(['iteration 0:', 'iteration 1:', 'iteration 2:']);
  });
});
