import { describe, expect, inject, it } from 'vitest';
import { calculateCost } from '@weft/catalog';
import { createFakeServer, uniqueSuffix } from '@weft/testkit';
import { api, defaultCookie } from './support/http.js';
import { FINAL_ANSWER, LOCAL_MODEL, OPERATOR_AZURE_KEY, USE_TOOL_MARK } from './support/modelFake.js';
import { oneBlock, readSse, workflowWith } from './support/runStream.js';

interface Chunk {
  blockId: string;
  seq: number;
  chunk: string;
  toolCall?: { id: string; name: string; state: string };
}
interface LogEntry {
  blockId: string;
  success: boolean;
  output?: Record<string, unknown>;
  tokens?: { prompt: number; completion: number; total: number };
  cost?: { input: number; output: number; total: number };
}

/** A new workflow of the default account: starter → agent "Agent 1" with the given values. */
async function agentWorkflow(values: Record<string, unknown>): Promise<string> {
  return (await workflowWith(oneBlock('agent', 'agent', 'Agent 1', values))).id;
}

describe('model layer end to end (gateway → runner → integrations → the OpenAI fake)', () => {
  it('starter → agent with a memory block as its tool: streamed to an SSE client, tool call states, cost in the log', async () => {
    const nonce = uniqueSuffix();
    const id = await agentWorkflow({
      model: 'gpt-4o',
      apiKey: 'sk-e2e',
      systemPrompt: 'You keep notes.',
      userPrompt: `${USE_TOOL_MARK} note ${nonce}: the launch is Friday`,
      tools: [{ type: 'memory', operation: 'add', params: { id: `launch-${nonce}` }, usageControl: 'auto' }],
    });
    const res = await fetch(`${inject('weftUrl')}/api/workflows/${id}/execute`, {
      method: 'POST',
      headers: { cookie: await defaultCookie(), accept: 'text/event-stream', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    const events = await readSse(res);
    const names = events.map((e) => e.event);
    expect(names.at(-1)).toBe('execution:completed');

    // Tokens reach the client as the model writes them, before the block has finished.
    const chunks = events.filter((e) => e.event === 'stream:chunk').map((e) => e.data as unknown as Chunk);
    expect(chunks.every((c) => c.blockId === 'agent')).toBe(true);
    expect(chunks.filter((c) => !c.toolCall).map((c) => c.chunk).join('')).toBe(FINAL_ANSWER);
    expect(chunks.filter((c) => c.toolCall).map((c) => `${c.toolCall?.name}:${c.toolCall?.state}`)).toEqual(['memory_add:detecting', 'memory_add:executing', 'memory_add:completed']);
    expect(chunks.map((c) => c.seq)).toEqual(chunks.map((_, i) => i));
    const firstText = events.findIndex((e) => e.event === 'stream:chunk' && (e.data as unknown as Chunk).chunk !== '');
    const agentDone = events.findIndex((e) => e.event === 'block:completed' && e.data.blockId === 'agent');
    expect(firstText).toBeGreaterThan(-1);
    expect(firstText).toBeLessThan(agentDone);

    // The provider saw two requests with the block's key: the tool call, then the answer after the tool result.
    const chats = (await (await fetch(`${inject('modelFakeUrl')}/_fake/chats`)).json()) as Array<{ authorization: string; body: { messages: Array<{ role: string; content: string }>; stream?: boolean } }>;
    const ours = chats.filter((c) => c.body.messages.some((m) => m.role === 'user' && m.content.includes(nonce)));
    expect(ours).toHaveLength(2);
    expect(ours.every((c) => c.authorization === 'Bearer sk-e2e' && c.body.stream === true)).toBe(true);
    expect(ours[0]?.body.messages[0]).toEqual({ role: 'system', content: 'You keep notes.' });
    const toolResult = ours[1]?.body.messages.find((m) => m.role === 'tool');
    expect(toolResult?.content).toContain('The launch is on Friday');

    // The stored run: the agent's output, tokens and cost (gpt-4o at 2.5 / 10 per million), per block and for the run.
    const executionId = String(events[0]?.data.executionId);
    const run = await api<{ status: string; output: Record<string, unknown>; logs: LogEntry[]; cost: LogEntry['cost'] | null; tokens: LogEntry['tokens'] | null }>('GET', `/api/executions/${executionId}`);
    expect(run.body.status).toBe('succeeded');
    const log = run.body.logs.find((l) => l.blockId === 'agent');
    const cost = { input: 0.002525, output: 0.00105, total: 0.003575 };
    // The pricing table's price of the fake's two answers (10 prompt + 5 completion tokens for the tool call, 1000 + 100 for the answer).
    const priced = [calculateCost('gpt-4o', 10, 5), calculateCost('gpt-4o', 1000, 100)];
    for (const part of ['input', 'output', 'total'] as const) expect(cost[part]).toBeCloseTo(priced.reduce((sum, c) => sum + c[part], 0), 9);
    expect(log).toMatchObject({ success: true, tokens: { prompt: 1010, completion: 105, total: 1115 }, cost });
    expect(log?.output).toMatchObject({ content: FINAL_ANSWER, model: 'gpt-4o', cost });
    // The run's own totals: its one model block's.
    expect(run.body.cost).toEqual(cost);
    expect(run.body.tokens).toEqual({ prompt: 1010, completion: 105, total: 1115 });
    expect((log?.output?.toolCalls as Array<{ name: string; success: boolean }>).map((c) => [c.name, c.success])).toEqual([['memory_add', true]]);
  });

  it('an API block as the tool calls a fake service with the body the model wrote; the service answer goes back to the model', async () => {
    const service = await createFakeServer();
    try {
      service.on('POST', '/notes', (req) => ({ status: 201, json: { saved: true, got: req.body } }));
      const nonce = uniqueSuffix();
      const id = await agentWorkflow({
        model: 'gpt-4o',
        apiKey: 'sk-e2e',
        userPrompt: `${USE_TOOL_MARK} save ${nonce}`,
        tools: [{ type: 'api', params: { url: `${service.url}/notes`, method: 'POST' } }],
      });
      const run = await api<{ success: boolean; output: { content: string; toolCalls: Array<{ name: string; success: boolean; result?: { data?: unknown; status?: number } }> } }>('POST', `/api/workflows/${id}/execute`, {});
      expect(run.body.success).toBe(true);
      expect(service.received('POST', '/notes').map((r) => r.body)).toEqual([{ note: 'The launch is on Friday' }]);
      expect(run.body.output.content).toBe(FINAL_ANSWER);
      expect(run.body.output.toolCalls).toMatchObject([{ name: 'http_request', success: true, result: { status: 201, data: { saved: true } } }]);
      const chats = (await (await fetch(`${inject('modelFakeUrl')}/_fake/chats`)).json()) as Array<{ body: { messages: Array<{ role: string; content: string }> } }>;
      const answered = chats.find((c) => JSON.stringify(c.body).includes(nonce) && c.body.messages.some((m) => m.role === 'tool'));
      expect(answered?.body.messages.find((m) => m.role === 'tool')?.content).toContain('"saved":true');
    } finally {
      await service.close();
    }
  });

  it("GET /api/providers/ollama/models lists the local Ollama server's models; signed out it is 401", async () => {
    const res = await api<{ models: string[] }>('GET', '/api/providers/ollama/models');
    expect(res).toMatchObject({ status: 200, body: { models: [LOCAL_MODEL] } });
    const anonymous = await api('GET', '/api/providers/ollama/models', undefined, { cookie: '' });
    expect(anonymous.status).toBe(401);
  });

  it('selectedOutputs chooses which blocks stream their tokens; an unknown block is refused naming it', async () => {
    const nonce = uniqueSuffix();
    const id = await agentWorkflow({ model: 'gpt-4o', apiKey: 'sk-e2e', userPrompt: `first ${nonce}` });
    const got = await api<{ data: { state: { blocks: Record<string, { id: string; type: string }> } } }>('GET', `/api/workflows/${id}`);
    const starter = Object.values(got.body.data.state.blocks).find((b) => b.type === 'starter');
    const added = await api('POST', `/api/workflows/${id}/commands`, {
      commands: [
        { type: 'addBlock', id: 'writer', blockType: 'agent', name: 'Writer', position: { x: 400, y: 300 } },
        { type: 'setSubBlockValue', id: 'writer', subBlockId: 'model', value: 'gpt-4o' },
        { type: 'setSubBlockValue', id: 'writer', subBlockId: 'apiKey', value: 'sk-e2e' },
        { type: 'setSubBlockValue', id: 'writer', subBlockId: 'userPrompt', value: `second ${nonce}` },
        { type: 'addEdge', source: starter?.id, target: 'writer' },
      ],
    });
    expect(added.status).toBe(200);
    const cookie = await defaultCookie();
    const res = await fetch(`${inject('weftUrl')}/api/workflows/${id}/execute`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ stream: true, selectedOutputs: ['writer.content'], topic: nonce }),
    });
    expect(res.status).toBe(200);
    const events = await readSse(res);
    expect(events.at(-1)?.event).toBe('execution:completed');
    expect(events.filter((e) => e.event === 'block:completed').map((e) => e.data.blockId)).toEqual(expect.arrayContaining(['agent', 'writer']));
    const chunks = events.filter((e) => e.event === 'stream:chunk').map((e) => e.data as unknown as Chunk);
    expect(chunks.length).toBeGreaterThan(0);
    expect(new Set(chunks.map((c) => c.blockId))).toEqual(new Set(['writer']));
    // The choice is not part of the run's input.
    const run = await api<{ input: unknown }>('GET', `/api/executions/${String(events[0]?.data.executionId)}`);
    expect(run.body.input).toEqual({ topic: nonce });

    const refused = await fetch(`${inject('weftUrl')}/api/workflows/${id}/execute`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ stream: true, selectedOutputs: ['Agent 1', 'nobody'] }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'selectedOutputs: no block "nobody" in this workflow' });
    const notList = await api('POST', `/api/workflows/${id}/execute`, { stream: true, selectedOutputs: 'Agent 1' });
    expect(notList).toMatchObject({ status: 400, body: { error: 'selectedOutputs must be a list of block ids or names' } });
  });

  it("an agent on an Azure deployment calls the endpoint and API version set in its form, with the block's key", async () => {
    const nonce = uniqueSuffix();
    const id = await agentWorkflow({ model: 'azure/weft-deploy', apiKey: 'az-e2e', azureEndpoint: inject('modelFakeUrl'), azureApiVersion: '2025-01-01-preview', userPrompt: `hello ${nonce}` });
    const run = await api<{ success: boolean; output?: { content?: string } }>('POST', `/api/workflows/${id}/execute`, {});
    expect(run.body).toMatchObject({ success: true, output: { content: 'Hello from the fake model.' } });
    const chats = (await (await fetch(`${inject('modelFakeUrl')}/_fake/chats`)).json()) as Array<{ apiKey: string | null; path: string; query: Record<string, string>; body: unknown }>;
    const mine = chats.filter((c) => JSON.stringify(c.body).includes(nonce));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ apiKey: 'az-e2e', path: '/openai/deployments/weft-deploy/chat/completions', query: { 'api-version': '2025-01-01-preview' } });
  });

  it("an agent that types its own Azure endpoint without a key fails naming the fields; the operator's Azure key reaches no typed endpoint", async () => {
    const nonce = uniqueSuffix();
    const id = await agentWorkflow({ model: 'azure/weft-deploy', azureEndpoint: inject('modelFakeUrl'), userPrompt: `hello ${nonce}` });
    const run = await api<{ success: boolean; error?: string }>('POST', `/api/workflows/${id}/execute`, {});
    expect(run.body).toMatchObject({ success: false });
    expect(run.body.error).toBe(
      "Agent 1: API key is required for Azure OpenAI when the block sets its own endpoint: enter the block's API Key (apiKey) or clear Azure OpenAI Endpoint (azureEndpoint) to use the server's AZURE_OPENAI_ENDPOINT",
    );
    const chats = (await (await fetch(`${inject('modelFakeUrl')}/_fake/chats`)).json()) as Array<{ apiKey: string | null; body: unknown }>;
    expect(chats.filter((c) => JSON.stringify(c.body).includes(nonce))).toEqual([]);
    expect(chats.map((c) => c.apiKey)).not.toContain(OPERATOR_AZURE_KEY);
  });

  it('a missing provider key fails the agent with the spec message, no provider call made', async () => {
    const nonce = uniqueSuffix();
    const id = await agentWorkflow({ model: 'claude-sonnet-4-0', userPrompt: `hello ${nonce}` });
    const run = await api<{ success: boolean; error?: string }>('POST', `/api/workflows/${id}/execute`, {});
    expect(run.body).toMatchObject({ success: false, error: 'Agent 1: API key is required for Anthropic' });
    const chats = (await (await fetch(`${inject('modelFakeUrl')}/_fake/chats`)).json()) as Array<{ body: unknown }>;
    expect(chats.filter((c) => JSON.stringify(c.body).includes(nonce))).toEqual([]);
  });
});
