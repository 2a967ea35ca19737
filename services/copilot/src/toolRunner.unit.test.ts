import { describe, expect, it } from 'vitest';
import type { ChatStore } from './store/chatStore.js';
import type { Ports } from './ports.js';
import { runCopilotTool } from './toolRunner.js';
import { toolResultContent } from './toolContent.js';

// get_blocks_metadata reads the catalogue only: nothing outside it is reached.
const unreachable = new Proxy({}, { get: () => { throw new Error('not reached in this test'); } });
const deps = { ports: unreachable as Ports, store: unreachable as ChatStore };
const scope = { turnId: 't1', chatId: 'c1', workflowId: 'w1', actorId: 'u1', propose: false };
const call = (args: Record<string, unknown>) => ({ id: 'call1', name: 'get_blocks_metadata', arguments: args });

describe('get_blocks_metadata', () => {
  it('answers blockIds that are not a list of strings with spec 000 §8’s message word for word, the hint beside it for the model', async () => {
    for (const blockIds of [undefined, 'agent', [1, 2]]) {
      const outcome = await runCopilotTool(deps, scope, call({ blockIds }));
      expect(outcome).toEqual({ success: false, error: 'Get block metadata failed: 400 Bad Request', hint: 'blockIds must be an array of block type ids' });
      expect(JSON.parse(toolResultContent(outcome))).toEqual({ success: false, error: 'Get block metadata failed: 400 Bad Request', hint: 'blockIds must be an array of block type ids' });
    }
  });

  it('describes the block types asked for', async () => {
    const outcome = await runCopilotTool(deps, scope, call({ blockIds: ['agent'] }));
    expect(outcome.success).toBe(true);
    expect(JSON.stringify(outcome.data)).toContain('agent');
    expect(JSON.parse(toolResultContent(outcome))).toEqual({ success: true, data: outcome.data });
  });
});

describe('the tool message the model reads', () => {
  it('carries no hint when the tool gives none', () => {
    expect(JSON.parse(toolResultContent({ success: false, error: 'Failed to edit workflow' }))).toEqual({ success: false, error: 'Failed to edit workflow' });
  });
});
