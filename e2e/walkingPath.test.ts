import { describe, expect, it } from 'vitest';
import { freePort } from '../infra/scripts/lib/stack.mjs';
import { api } from './support/http.js';
import { startSecondGateway } from './support/gateway.js';
import { workflowWith, workspaceId } from './support/runStream.js';

interface Block {
  id: string;
  type: string;
  name: string;
  position: { x: number; y: number };
}
interface WorkflowBody {
  data: { id: string; name: string; version: number; state: { blocks: Record<string, Block>; edges: Array<{ source: string; target: string }> } };
}

describe('the walking path through every layer', () => {
  it('reports every service healthy', async () => {
    const res = await api('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'ok',
      services: { registry: 'up', editor: 'up', runner: 'up', integrations: 'up', copilot: 'up', postgres: 'up', nats: 'up', temporal: 'up' },
    });
  });

  it('creates a workflow whose stream the editor starts with a starter block at (100, 100)', async () => {
    const ws = await workspaceId();
    const created = await api<{ id: string; name: string; description: string; color: string; folderId: null }>('POST', '/api/workflows', { workspaceId: ws });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ description: 'New workflow', folderId: null });
    expect(created.body.name).toMatch(/^[a-z]+-[a-z]+$/);
    expect(created.body.color).toMatch(/^#[0-9A-F]{6}$/i);
    const got = await api<WorkflowBody>('GET', `/api/workflows/${created.body.id}`);
    const blocks = Object.values(got.body.data.state.blocks);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toMatchObject({ type: 'starter', position: { x: 100, y: 100 } });
    expect(got.body.data.version).toBeGreaterThan(0);
    const list = await api<{ data: Array<{ id: string; state: unknown }> }>('GET', `/api/workflows?workspaceId=${ws}`);
    expect(list.body.data.map((w) => w.id)).toContain(created.body.id);
  });

  it('refuses a workflow without a workspace with the spec message', async () => {
    const res = await api('POST', '/api/workflows', {});
    expect(res).toEqual({ status: 400, body: { error: 'No active workspace found' } });
  });

  it('edits and runs starter → function in a Temporal run; return 40 + 2 gives 42', async () => {
    const { id, starter } = await workflowWith();
    const edit = await api<{ version: number; events: unknown[] }>('POST', `/api/workflows/${id}/commands`, {
      commands: [
        { type: 'addBlock', id: 'fn', blockType: 'function', position: { x: 400, y: 100 } },
        { type: 'setSubBlockValue', id: 'fn', subBlockId: 'code', value: 'console.log("hi"); return 40 + 2' },
        { type: 'addEdge', source: starter, target: 'fn' },
      ],
    });
    expect(edit.status).toBe(200);
    expect(edit.body.events).toHaveLength(3);
    const run = await api<{ success: boolean; output: { result: unknown; stdout: string }; logs: Array<{ blockType: string; success: boolean }> }>(
      'POST',
      `/api/workflows/${id}/execute`,
      { input: { n: 1 } },
    );
    expect(run.status).toBe(200);
    expect(run.body.success).toBe(true);
    expect(run.body.output).toEqual({ result: 42, stdout: 'hi\n' });
    expect(run.body.logs.map((l) => [l.blockType, l.success])).toEqual([
      ['starter', true],
      ['function', true],
    ]);
  });

  it('answers a failing function as success false with its error', async () => {
    const { id, starter } = await workflowWith();
    await api('POST', `/api/workflows/${id}/commands`, {
      commands: [
        { type: 'addBlock', id: 'fn', blockType: 'function', position: { x: 400, y: 100 } },
        { type: 'setSubBlockValue', id: 'fn', subBlockId: 'code', value: 'throw new Error("boom")' },
        { type: 'addEdge', source: starter, target: 'fn' },
      ],
    });
    const run = await api<{ success: boolean; error: string }>('POST', `/api/workflows/${id}/execute`, {});
    expect(run.status).toBe(200);
    expect(run.body.success).toBe(false);
    expect(run.body.error).toContain('Error: boom');
  });

  it('refuses an unknown block type and stores nothing', async () => {
    const { id } = await workflowWith();
    const before = await api<WorkflowBody>('GET', `/api/workflows/${id}`);
    const res = await api<{ error: string }>('POST', `/api/workflows/${id}/commands`, { commands: [{ type: 'addBlock', blockType: 'no_such_block', position: { x: 0, y: 0 } }] });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('no_such_block');
    const after = await api<WorkflowBody>('GET', `/api/workflows/${id}`);
    expect(after.body.data.version).toBe(before.body.data.version);
  });

  it('answers bad input with 400 naming the problem, and unknown workflows with 404', async () => {
    expect((await api('POST', '/api/workflows', '{"workspaceId":')).status).toBe(400);
    const { id } = await workflowWith();
    const empty = await api<{ error: string }>('POST', `/api/workflows/${id}/commands`, { commands: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('commands must hold at least one command');
    const missing = await api<{ error: string }>('GET', '/api/workflows/does-not-exist');
    expect(missing).toEqual({ status: 404, body: { error: 'Workflow does-not-exist not found' } });
  });

  it('reports 503 naming a service that is down', async () => {
    // A second gateway whose copilot address points at a closed port.
    const closed = await freePort();
    const gateway = await startSecondGateway({ COPILOT_ADDR: `127.0.0.1:${closed}` });
    try {
      const res = await fetch(`${gateway.url}/api/health`);
      expect(res.status).toBe(503);
      const body = (await res.json()) as { down: string[]; services: Record<string, string> };
      expect(body.down).toEqual(['copilot']);
      expect(body.services.registry).toBe('up');
    } finally {
      gateway.stop();
    }
  });
});
