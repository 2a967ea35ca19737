import { describe, expect, it } from 'vitest';
import { chunkSelected, resolveSelectedOutputs, selectedOutputsOf } from './streamSelection.js';

const blocks = {
  'b-1': { id: 'b-1', name: 'Start', type: 'starter' },
  'agent-a': { id: 'agent-a', name: 'Agent 1', type: 'agent' },
  'agent-b': { id: 'agent-b', name: 'Writer', type: 'agent' },
};

describe('selectedOutputs', () => {
  it('is absent unless the body lists it; a bad list names the field', () => {
    expect(selectedOutputsOf({ stream: true })).toBeUndefined();
    expect(selectedOutputsOf([1])).toBeUndefined();
    expect(selectedOutputsOf({ selectedOutputs: null })).toBeUndefined();
    expect(selectedOutputsOf({ selectedOutputs: [' agent1.content '] })).toEqual(['agent1.content']);
    for (const bad of ['agent1', [''], [3], {}]) expect(() => selectedOutputsOf({ selectedOutputs: bad })).toThrow('selectedOutputs must be a list of block ids or names');
  });

  it('names blocks by id, by name, as references write it, with or without an output path', () => {
    expect([...resolveSelectedOutputs(['agent-a'], blocks)]).toEqual(['agent-a']);
    expect([...resolveSelectedOutputs(['Agent 1'], blocks)]).toEqual(['agent-a']);
    expect([...resolveSelectedOutputs(['agent1.content', 'writer'], blocks)]).toEqual(['agent-a', 'agent-b']);
    expect([...resolveSelectedOutputs(['agent-b_content'], blocks)]).toEqual(['agent-b']);
  });

  it('refuses an entry that names no block, naming it', () => {
    expect(() => resolveSelectedOutputs(['writer', 'Editor.content'], blocks)).toThrow('selectedOutputs: no block "Editor.content" in this workflow');
    // A rerun's blocks are the state its execution ran, and the error says so.
    expect(() => resolveSelectedOutputs(['Editor'], blocks, 'the workflow this execution ran')).toThrow('selectedOutputs: no block "Editor" in the workflow this execution ran');
  });

  it('lets through the chunks of selected blocks only (all when none was selected)', () => {
    const chunk = (blockId: string) => JSON.stringify({ blockId, seq: 1, chunk: 'Hi' });
    expect(chunkSelected(chunk('agent-a'), new Set(['agent-a']))).toBe(true);
    expect(chunkSelected(chunk('agent-b'), new Set(['agent-a']))).toBe(false);
    expect(chunkSelected(chunk('agent-b'), undefined)).toBe(true);
    expect(chunkSelected('not json', new Set(['agent-a']))).toBe(false);
  });
});
