import { blockToolCall, listBlocks, RETRIES_FIELD, visibleSubBlocks, type BlockConfig } from '@weft/catalog';
import { describe, expect, it } from 'vitest';
import { agentTools, AgentToolError, functionName } from './agentTools.js';
import { memoryMessages, parseObject, responseFormatOf } from './params.js';

describe("an agent's tools field", () => {
  it('a tool block: its form values mapped like the block maps them; the model is offered only the llm parameters left empty', () => {
    const [slack] = agentTools([{ type: 'slack', operation: 'send', usageControl: 'force', params: { authMethod: 'bot_token', botToken: 'xoxb-1', channel: '#news' } }]);
    expect(slack).toMatchObject({ toolId: 'slack_message', usageControl: 'force', userParams: { accessToken: 'xoxb-1', channel: '#news' } });
    expect(slack?.definition.name).toBe('slack_message');
    expect(slack?.definition.parameters).toMatchObject({ type: 'object', required: ['text'] });
    expect(Object.keys((slack?.definition.parameters as { properties: object }).properties)).toEqual(['text']);
    const [filled] = agentTools([{ type: 'slack', operation: 'send', params: { authMethod: 'bot_token', botToken: 'x', channel: '#a', text: 'fixed' } }]);
    expect((filled?.definition.parameters as { properties: object }).properties).toEqual({});
    expect(filled?.usageControl).toBe('auto');
  });

  it("a tool block as the web's tool card stores it (the block's form values, operation among them, no toolId): the operation picks the tool", () => {
    const [reader] = agentTools([{ type: 'slack', title: 'Slack', usageControl: 'auto', params: { operation: 'read', authMethod: 'bot_token', botToken: 'xoxb-2', channel: 'C1' } }]);
    expect(reader).toMatchObject({ toolId: 'slack_message_reader', userParams: { accessToken: 'xoxb-2', channel: 'C1', limit: 10 } });
    const [account] = agentTools([{ type: 'slack', params: { operation: 'send', authMethod: 'oauth', credential: 'cred-1' } }]);
    expect(account).toMatchObject({ toolId: 'slack_message', userParams: { credential: 'cred-1' } });
  });

  it("the API block as the web's tool picker stores it: the HTTP request tool, the model filling what the card leaves empty", () => {
    const [http] = agentTools([{ type: 'api', title: 'API', usageControl: 'auto', params: { method: 'POST', url: 'https://example.test/items' } }]);
    expect(http).toMatchObject({ toolId: 'http_request', userParams: { method: 'POST', url: 'https://example.test/items' } });
    const offered = Object.keys((http?.definition.parameters as { properties: object }).properties);
    expect(offered).toEqual(expect.arrayContaining(['body', 'headers', 'params']));
    expect(offered).not.toContain('url');
  });

  it('a tool block whose fields the catalogue renames: the agent sends the parameters the block sends (Tavily Max Results as max_results)', () => {
    const [search] = agentTools([{ type: 'tavily', params: { operation: 'search', apiKey: 'tvly-1', maxResults: '7', [RETRIES_FIELD.id]: 4 } }]);
    expect(search).toMatchObject({ toolId: 'tavily_search', userParams: { apiKey: 'tvly-1', max_results: '7' } });
    // The retry setting is the run's, never a parameter of the call (the engine leaves it out of a block's too).
    expect(search?.userParams).not.toHaveProperty(RETRIES_FIELD.id);
    // A card of an older picker names its tool: the selector is not asked, the fields are mapped all the same.
    const [fixed] = agentTools([{ type: 'tavily', toolId: 'tavily_search', params: { apiKey: 'tvly-1', maxResults: '3' } }]);
    expect(fixed).toMatchObject({ toolId: 'tavily_search', userParams: { max_results: '3' } });
  });

  it("every tool block the picker offers, in each of its operations: as an agent's tool it calls the tool with the params it calls it with as a block", () => {
    const offered = listBlocks().filter((b) => (b.category === 'tools' || b.type === 'api') && !b.hideFromToolbar && b.tools.access.length > 0);
    expect(offered.map((b) => b.type)).toEqual(expect.arrayContaining(['api', 'slack', 'tavily']));
    let compared = 0;
    for (const block of offered) {
      for (const values of cardStates(block)) {
        let asBlock: ReturnType<typeof blockToolCall> | Error;
        try {
          asBlock = blockToolCall(block, values);
        } catch (err) {
          asBlock = err instanceof Error ? err : new Error(String(err));
        }
        const entry = { type: block.type, params: { ...values, [RETRIES_FIELD.id]: 1 } };
        if (asBlock instanceof Error) {
          expect(() => agentTools([entry]), block.type).toThrow(new AgentToolError(asBlock.message));
          continue;
        }
        const [tool] = agentTools([entry]);
        expect({ type: block.type, toolId: tool?.toolId, params: tool?.userParams }).toEqual({ type: block.type, toolId: asBlock.toolId, params: asBlock.params });
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(offered.length);
  });

  it('a custom tool: its own schema, run as custom_<id>; names made valid and unique', () => {
    const schema = { function: { name: 'get weather!', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };
    const tools = agentTools(JSON.stringify([
      { type: 'custom-tool', id: 'w1', schema, usageControl: 'none' },
      { type: 'custom-tool', customToolId: 'custom_w2', schema },
    ]));
    expect(tools.map((t) => [t.definition.name, t.toolId, t.usageControl])).toEqual([
      ['get_weather', 'custom_w1', 'none'],
      ['get_weather_2', 'custom_w2', 'auto'],
    ]);
    expect(tools[0]?.definition.parameters).toEqual(schema.function.parameters);
    expect(functionName('a'.repeat(80))).toHaveLength(64);
  });

  it('refuses what cannot run with a message naming it', () => {
    expect(() => agentTools('{not json')).toThrow(new AgentToolError('Invalid tools: not a JSON array'));
    expect(() => agentTools({})).toThrow('Invalid tools: not a JSON array');
    expect(() => agentTools([{ type: 'no_such_block' }])).toThrow('Unknown tool block type: no_such_block');
    expect(() => agentTools([{ type: 'slack', operation: 'dance' }])).toThrow('Invalid Slack operation');
    expect(() => agentTools([{ type: 'custom-tool', title: 'Mine' }])).toThrow('Custom tool Mine has no id');
    expect(agentTools('')).toEqual([]);
    expect(agentTools(null)).toEqual([]);
  });
});

describe('agent form values', () => {
  it('a memory block’s "get all" output (the route’s rows, each with its messages as data) becomes the conversation in order', () => {
    // GET /api/memory answers {success, output: {memories: [{id, key, type, workflowId, data: [messages], createdAt, updatedAt}]}}.
    const row = (key: string, data: unknown[]) => ({ id: key, key, type: 'agent', workflowId: 'wf1', data, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' });
    const getAll = { memories: [row('chat', [{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello' }]), row('other', [{ role: 'user', content: 'Again' }])] };
    expect(memoryMessages(getAll)).toEqual([
      { role: 'system', content: 'Be brief' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello' },
      { role: 'user', content: 'Again' },
    ]);
    // The same as a reference resolved to JSON text, and a "get" (one memory's messages, {memories, id}).
    expect(memoryMessages(JSON.stringify(getAll))).toHaveLength(4);
    expect(memoryMessages({ memories: [{ role: 'user', content: 'Hi' }], id: 'chat' })).toEqual([{ role: 'user', content: 'Hi' }]);
  });

  it('memories from a memory block become the conversation before the prompt', () => {
    const stored = { memories: [{ data: { role: 'user', content: 'Hi' } }, { data: { role: 'assistant', content: 'Hello' } }, { data: { role: 'robot', content: 'x' } }] };
    expect(memoryMessages(stored)).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello' },
    ]);
    expect(memoryMessages('[{"role":"system","content":"Be brief"}]')).toEqual([{ role: 'system', content: 'Be brief' }]);
    expect(memoryMessages('not json')).toEqual([]);
  });

  it('a response format is a JSON schema or {name, schema, strict}; bad JSON names the field', () => {
    expect(responseFormatOf('{"type":"object"}')).toEqual({ ok: true, value: { schema: { type: 'object' } } });
    expect(responseFormatOf({ name: 'out', schema: { type: 'object' }, strict: false })).toEqual({ ok: true, value: { name: 'out', schema: { type: 'object' }, strict: false } });
    expect(responseFormatOf('')).toEqual({ ok: true });
    const bad = responseFormatOf('{oops');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/^Invalid response format: /);
    expect(responseFormatOf('[1]')).toEqual({ ok: false, error: 'Invalid response format: expected a JSON schema object' });
    expect(parseObject('```json\n{"a":1}\n```')).toEqual({ a: 1 });
    expect(parseObject('plain')).toBeUndefined();
  });
});

/**
 * A card's values in each operation of a block: the defaults a new card holds, and a text in every field
 * the card then shows (as a user fills them; a JSON field's text may be refused, by both alike).
 */
function cardStates(block: BlockConfig): Array<Record<string, unknown>> {
  const defaults = Object.fromEntries(block.subBlocks.filter((s) => s.defaultValue !== undefined && s.defaultValue !== null).map((s) => [s.id, s.defaultValue]));
  const operations = block.subBlocks.find((s) => s.id === 'operation')?.options?.map((o) => o.id) ?? [undefined];
  return operations.map((operation) => {
    const state: Record<string, unknown> = { ...defaults, ...(operation !== undefined ? { operation } : {}) };
    for (const field of visibleSubBlocks(block, state, 'basic')) {
      if (field.id !== 'operation' && state[field.id] === undefined && !field.options) state[field.id] = field.type === 'switch' ? true : `${field.id} 7`;
    }
    return state;
  });
}
