import { describe, expect, it } from 'vitest';
import { api } from './support/http.js';

interface Block {
  type: string;
  category: string;
  subBlocks: Array<{ id: string }>;
  tools: { access: string[] };
}

describe('the catalogue served by the gateway', () => {
  it('lists all 64 blocks with their forms, the tools and the providers', async () => {
    const blocks = await api<{ data: Block[] }>('GET', '/api/blocks');
    expect(blocks.status).toBe(200);
    expect(blocks.body.data).toHaveLength(64);
    const agent = blocks.body.data.find((b) => b.type === 'agent');
    expect(agent?.subBlocks.map((s) => s.id)).toEqual(expect.arrayContaining(['systemPrompt', 'userPrompt', 'model', 'temperature', 'maxTokens', 'memories', 'tools']));
    const tools = await api<{ data: Array<{ id: string }> }>('GET', '/api/tools');
    expect(tools.body.data.map((t) => t.id)).toEqual(expect.arrayContaining(['slack_message', 'openai_chat', 'anthropic_chat']));
    const providers = await api<{ data: Array<{ id: string }> }>('GET', '/api/providers');
    expect(providers.body.data.map((p) => p.id)).toEqual(expect.arrayContaining(['openai', 'anthropic', 'google', 'ollama']));
  });

  it('validates block parameters with the spec messages', async () => {
    const bad = await api('POST', '/api/blocks/validate', { blockType: 'slack', params: { operation: 'nope' } });
    expect(bad).toEqual({ status: 200, body: { success: false, error: 'Invalid Slack operation' } });
    const missing = await api<{ success: boolean; error: string }>('POST', '/api/blocks/validate', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain('blockType');
  });

  it('answers the copilot catalogue calls', async () => {
    const all = await api<{ success: boolean; data: Record<string, string[]> }>('POST', '/api/tools/get-blocks-and-tools', {});
    expect(all.body.success).toBe(true);
    expect(all.body.data.slack).toEqual(expect.arrayContaining(['slack_message']));
    const meta = await api<{ success: boolean; data: Record<string, { type?: string }> }>('POST', '/api/tools/get-blocks-metadata', { blockIds: ['function'] });
    expect(Object.keys(meta.body.data)).toEqual(['function']);
    const refused = await api<{ success: boolean; error: string }>('POST', '/api/tools/get-blocks-metadata', {});
    expect(refused).toEqual({ status: 400, body: { success: false, error: 'blockIds is required and must be an array of block type ids' } });
    const triggers = await api<{ success: boolean; data: Array<{ type?: string; id?: string }> }>('POST', '/api/tools/get-all-blocks', { filterCategory: 'triggers' });
    expect(triggers.body.data.length).toBeGreaterThan(0);
    expect(triggers.body.data.length).toBeLessThan(64);
  });
});
