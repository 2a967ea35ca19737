import { describe, expect, it } from 'vitest';
import { checkDeployable } from '../triggers/checkDeployable.js';
import { validateBlockParams } from './registry.js';

const agent = (maxTokens: unknown) => ({ model: 'gpt-4o', userPrompt: 'Hi', maxTokens });

describe("the agent's Max Tokens", () => {
  it('takes a positive whole number, as text or number, or nothing', () => {
    for (const ok of ['4096', 1, '', undefined, ' 256 ']) expect(validateBlockParams('agent', agent(ok)), String(ok)).toEqual({ success: true });
  });

  it('takes a number written otherwise whose value is a positive whole number, as runs before the check sent it ("1000.0", "1e3")', () => {
    for (const ok of ['1000.0', '1e3', '2E2', 1000.0, '+64']) expect(validateBlockParams('agent', agent(ok)), String(ok)).toEqual({ success: true });
    for (const bad of ['0x10', '0b11', '0o7', '1e-3', '1e400', 'Infinity', '0.0', '-1e3', '12.5e0'])
      expect(validateBlockParams('agent', agent(bad)), bad).toEqual({ success: false, error: `Max Tokens must be a positive whole number (got ${bad})` });
  });

  it('refuses a negative, zero, fractional or wordy value, naming the field and the value', () => {
    expect(validateBlockParams('agent', agent('-5'))).toEqual({ success: false, error: 'Max Tokens must be a positive whole number (got -5)' });
    for (const bad of ['0', 0, '1.5', '12.5', 2.5, 'lots', '-5']) expect(validateBlockParams('agent', agent(bad)).success, String(bad)).toBe(false);
  });

  it('keeps a workflow with a bad value from being deployed, at the field; a reference is left to the run', () => {
    const state = (maxTokens: string) => ({
      blocks: {
        s: { id: 's', type: 'starter', name: 'Start', subBlocks: {} },
        a: { id: 'a', type: 'agent', name: 'Agent 1', subBlocks: Object.fromEntries(Object.entries(agent(maxTokens)).map(([id, value]) => [id, { id, value }])) },
      },
      edges: [{ source: 's', target: 'a' }],
    });
    expect(checkDeployable(state('-5'))).toContainEqual({ blockId: 'a', blockName: 'Agent 1', field: 'maxTokens', message: 'Max Tokens must be a positive whole number (got -5)' });
    expect(checkDeployable(state('{{MAX_TOKENS}}')).filter((p) => p.field === 'maxTokens')).toEqual([]);
  });
});
