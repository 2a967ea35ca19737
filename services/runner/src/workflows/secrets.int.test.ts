import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { ExecuteToolInput, IntegrationActivities } from '@weft/contracts';
import { PayloadCipher, weftDataConverter } from '@weft/platform';
import { backingEnv, uniqueSuffix } from '@weft/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphOf, recordedRunLog, workflowBundle } from '../testing/engineHarness.js';
import type { runWorkflow } from './index.js';
import type { RunnerActivities } from './types.js';

const SECRET = `sk-live-${randomBytes(12).toString('hex')}`;
const timing = { startTime: '', endTime: '', duration: 0 };

/** Every byte string in a value (payload data and metadata), read as text, joined. */
function bytesIn(value: unknown, out: string[] = []): string[] {
  if (value instanceof Uint8Array) out.push(Buffer.from(value).toString('latin1'));
  else if (Array.isArray(value)) for (const v of value) bytesIn(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) bytesIn(v, out);
  return out;
}

/** Every payload in a history, decoded with `cipher`, as text. */
async function decodedPayloads(value: unknown, cipher: PayloadCipher, out: string[] = []): Promise<string[]> {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return out;
  const p = value as { metadata?: Record<string, Uint8Array>; data?: Uint8Array };
  if (p.metadata && typeof p.metadata === 'object' && 'encoding' in p.metadata) {
    const [plain] = await cipher.decode([p]);
    out.push(Buffer.from(plain?.data ?? []).toString('utf8'));
    return out;
  }
  for (const v of Array.isArray(value) ? value : Object.values(value)) await decodedPayloads(v, cipher, out);
  return out;
}

describe('secrets from the workspace environment never sit in Temporal history in clear', () => {
  const key = randomBytes(32);
  const dataConverter = weftDataConverter({ WEFT_PAYLOAD_KEY: key.toString('base64') });
  const queue = `secrets-${uniqueSuffix()}`;
  const toolQueue = `secrets-tools-${uniqueSuffix()}`;
  let client: Client;
  let connection: Connection;
  let native: NativeConnection;
  let workers: Worker[];
  let running: Promise<unknown>;
  const toolCalls: ExecuteToolInput[] = [];

  beforeAll(async () => {
    const { temporalAddress } = await backingEnv();
    connection = await Connection.connect({ address: temporalAddress });
    client = new Client({ connection, dataConverter });
    native = await NativeConnection.connect({ address: temporalAddress });
    const runnerActivities: RunnerActivities = {
      recordRunEvent: () => Promise.resolve(),
      storeBlob: () => Promise.reject(new Error('no blobs here')),
      loadBlob: () => Promise.reject(new Error('no blobs here')),
      loadEnvironment: () => Promise.resolve({ API_TOKEN: SECRET }),
      startRun: (_event, environment) => Promise.resolve<Record<string, string>>(environment ? { API_TOKEN: SECRET } : {}),
      loadChildWorkflow: (_w, id) => Promise.reject(new Error(`Workflow ${id} not found`)),
    };
    const integrations: IntegrationActivities = {
      async executeFunction(input) {
        const fn = new Function('params', 'environmentVariables', `return (async () => {\n${input.code}\n})()`) as (p: unknown, e: unknown) => Promise<unknown>;
        return { success: true, output: { result: await fn(input.params, input.envVars), stdout: '' }, timing };
      },
      executeTool(input) {
        toolCalls.push(input);
        const auth = String((input.params.headers as Array<{ cells: { Value: string } }>)[0]?.cells.Value ?? '');
        return Promise.resolve({ success: true, output: { data: { authorized: auth === `Bearer ${SECRET}` }, status: 200, headers: {} }, timing });
      },
    };
    workers = [
      await Worker.create({ connection: native, taskQueue: queue, dataConverter, workflowBundle: await workflowBundle(), activities: runnerActivities, sinks: recordedRunLog([]) }),
      await Worker.create({ connection: native, taskQueue: toolQueue, dataConverter, activities: integrations }),
    ];
    running = Promise.all(workers.map((w) => w.run()));
  }, 240_000);

  afterAll(async () => {
    for (const w of workers ?? []) w.shutdown();
    await running;
    await native?.close();
    await connection?.close();
  });

  it('a run using {{API_TOKEN}} in a function and an API header: the values reach the activities, the history holds only ciphertext', async () => {
    const state = graphOf(
      {
        s: { type: 'starter', name: 'Start' },
        fn: { name: 'Fn', code: 'return {{API_TOKEN}}.length' },
        call: {
          type: 'api',
          name: 'Call',
          values: { url: 'https://api.example.test/me', method: 'GET', headers: [{ id: 'h1', cells: { Key: 'Authorization', Value: 'Bearer {{API_TOKEN}}' } }] },
        },
      },
      [
        ['s', 'fn'],
        ['fn', 'call'],
      ],
    );
    const workflowId = `run-${uniqueSuffix()}`;
    const handle = await client.workflow.start<typeof runWorkflow>('runWorkflow', {
      taskQueue: queue,
      workflowId,
      args: [{ executionId: workflowId, workflowId: 'wf-secrets', workspaceId: 'ws-1', actorId: 'u-1', state, input: {}, requestId: 'req-1', integrationsTaskQueue: toolQueue }],
    });
    const result = await handle.result();
    expect(result.error).toBeUndefined();
    // The secret was used: the function saw its value, the tool got the header with it.
    expect(result.logs.find((l) => l.blockId === 'fn')?.output).toEqual({ result: SECRET.length, stdout: '' });
    expect(result.output).toMatchObject({ data: { authorized: true } });
    expect(toolCalls).toHaveLength(1);
    // The run log shows {{API_TOKEN}}, never the value.
    expect(JSON.stringify(result.logs)).not.toContain(SECRET);

    const history = await handle.fetchHistory();
    const raw = [...bytesIn(history), JSON.stringify(history)].join('\n');
    expect(raw).not.toContain(SECRET);
    // Decrypted with the key, the same history does hold it (environment marker, activity inputs).
    const plain = (await decodedPayloads(history, new PayloadCipher(key))).join('\n');
    expect(plain).toContain(SECRET);
    // And the history still replays with the workflow code.
    await Worker.runReplayHistory({ workflowBundle: await workflowBundle(), dataConverter, replayName: 'secrets' }, history, workflowId);
  });
});
