import { describe, expect, it, inject } from 'vitest';
import { newWorkflow } from './support/workflows.js';

type Named = { blocks: Record<string, { name: string; subBlocks: Record<string, { value: unknown } | undefined> }> };

describe('block names through the gateway (helper-139 QA)', () => {
  it('a rename to another block\'s name or to no referenceable name answers 400 naming the field, and references stay', async () => {
    const wf = await newWorkflow<Named>('Names e2e');
    const commands = (list: unknown[]) => wf.call<{ error?: string }>('POST', `/api/workflows/${wf.workflowId}/commands`, { commands: list });
    const added = await commands([
      { type: 'addBlock', id: 'ag', blockType: 'agent', name: 'Agent 1', position: { x: 300, y: 100 } },
      { type: 'addBlock', id: 'fn', blockType: 'function', name: 'Function 1', position: { x: 600, y: 100 } },
      { type: 'addBlock', id: 'cond', blockType: 'condition', name: 'Condition 1', position: { x: 900, y: 100 } },
      { type: 'setSubBlockValue', id: 'cond', subBlockId: 'conditions', value: '<function1.result.len> > 5' },
    ]);
    expect(added.status).toBe(200);
    const clash = await commands([{ type: 'renameBlock', id: 'fn', name: 'agent 1' }]);
    expect(clash.status).toBe(400);
    expect(clash.body.error).toBe('Invalid command: name: a block named "Agent 1" already exists (names are compared lowercased, without spaces)');
    const blank = await commands([{ type: 'renameBlock', id: 'fn', name: '  ' }]);
    expect(blank.status).toBe(400);
    expect(blank.body.error).toMatch(/^Invalid command: name: a block name needs a letter or digit/);
    const state = await wf.state();
    expect(state.blocks['fn']?.name).toBe('Function 1');
    expect(state.blocks['cond']?.subBlocks['conditions']?.value).toBe('<function1.result.len> > 5');
  });

  it('sign-up refuses a blank name and one of 100,000 characters with a 400 naming the field', async () => {
    const signUp = (name: string) =>
      fetch(`${inject('weftUrl')}/api/auth/sign-up/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `${crypto.randomUUID()}@example.test`, password: 'correct horse battery staple', name }),
      });
    const blank = await signUp('   ');
    expect(blank.status).toBe(400);
    expect(((await blank.json()) as { message: string }).message).toBe('name is required');
    const long = await signUp('x'.repeat(100_000));
    expect(long.status).toBe(400);
    expect(((await long.json()) as { message: string }).message).toBe('name must be at most 100 characters');
  });
});
