import { describe, expect, it } from 'vitest';
import { runPath, type PathEdge } from './runPath';
import type { BlockEntry, BlockRunStatus } from './runState';

const entry = (blockId: string, status: BlockRunStatus, output?: unknown): BlockEntry => ({ key: blockId, blockId, blockName: blockId, blockType: 'function', status, output, streamed: '', toolCalls: [] });
const edge = (id: string, source: string, target: string, sourceHandle?: string): PathEdge => ({ id, source, target, sourceHandle });

describe('the path a run took', () => {
  it('marks the error edge from a failed block to the block that ran after it, and not its normal edge', () => {
    const edges = [edge('start-fn', 'start', 'fn'), edge('fn-ok', 'fn', 'ok'), edge('fn-err', 'fn', 'handler', 'error'), edge('handler-end', 'handler', 'end')];
    const entries = [entry('start', 'done'), entry('fn', 'failed'), entry('handler', 'done'), entry('end', 'done')];
    expect([...runPath(edges, entries)].sort()).toEqual(['fn-err', 'handler-end', 'start-fn']);
  });

  it('leaves out the error edge of a block that succeeded, even when its target ran by another way', () => {
    const edges = [edge('a-b', 'a', 'b'), edge('a-h', 'a', 'h', 'error'), edge('b-h', 'b', 'h')];
    const entries = [entry('a', 'done'), entry('b', 'done'), entry('h', 'done')];
    expect([...runPath(edges, entries)].sort()).toEqual(['a-b', 'b-h']);
  });

  it('follows the condition row and the router target chosen, and not a skipped block', () => {
    const edges = [edge('if', 'cond', 'x', 'condition-c-if'), edge('else', 'cond', 'y', 'condition-c-else'), edge('r-x', 'router', 'x', 'router-x'), edge('r-z', 'router', 'z', 'router-z'), edge('x-s', 'x', 's')];
    const entries = [entry('cond', 'done', { selectedConditionId: 'c-if' }), entry('router', 'done', { selectedPath: { blockId: 'x' } }), entry('x', 'done'), entry('y', 'done'), entry('z', 'done'), entry('s', 'skipped')];
    expect([...runPath(edges, entries)].sort()).toEqual(['if', 'r-x']);
  });

  it('marks a running loop’s start edge into a child that ran, and an edge whose target is still running', () => {
    const edges = [edge('in', 'loop', 'child', 'loop-start-source'), edge('out', 'loop', 'after', 'loop-end-source'), edge('s-l', 'start', 'loop')];
    const entries = [entry('start', 'done'), entry('loop', 'running'), entry('child', 'running')];
    expect([...runPath(edges, entries)].sort()).toEqual(['in', 's-l']);
  });
});
