import { describe, expect, it } from 'vitest';
import { diffGraphs, graphOfYaml, proposedDiff } from './diff.js';

const BEFORE = `version: "1.0"
blocks:
  start:
    type: starter
    name: Start
    connections:
      - writer
  writer:
    type: agent
    name: Writer
    inputs:
      systemPrompt: Be brief.
  old:
    type: function
    name: Old
`;

const AFTER = `version: "1.0"
blocks:
  start:
    type: starter
    name: Start
    connections:
      - writer
  writer:
    type: agent
    name: Summariser
    inputs:
      systemPrompt: Summarise.
    connections:
      - notify
  notify:
    type: slack
    name: Notify
`;

describe('diff of a proposed edit', () => {
  it('names blocks added, removed and changed (with the fields) and edges added and removed', () => {
    expect(diffGraphs(graphOfYaml(BEFORE), graphOfYaml(AFTER))).toEqual({
      blocks: {
        added: [{ id: 'notify', type: 'slack', name: 'Notify' }],
        removed: [{ id: 'old', type: 'function', name: 'Old' }],
        changed: [{ id: 'writer', type: 'agent', name: 'Summariser', fields: ['name', 'inputs.systemPrompt'] }],
      },
      edges: { added: [{ source: 'writer', target: 'notify' }], removed: [] },
    });
  });

  it('is empty for the same workflow, and invalid YAML throws with its line', () => {
    expect(diffGraphs(graphOfYaml(BEFORE), graphOfYaml(BEFORE))).toEqual({ blocks: { added: [], removed: [], changed: [] }, edges: { added: [], removed: [] } });
    expect(() => graphOfYaml('version: "1.0"\nblocks:\n  a:\n    type: nope\n')).toThrow(/^Invalid YAML at line 4: /);
  });
});

describe('a proposed edit of a workflow stored before the name rule', () => {
  const CLASH = `version: "1.0"
blocks:
  start:
    type: starter
    name: Start
  a:
    type: agent
    name: Agent 1
  b:
    type: agent
    name: Agent 1
`;
  const block = (id: string, type: string, name: string) => ({ id, type, name, position: { x: 0, y: 0 }, subBlocks: {}, outputs: {}, enabled: true, data: {} });

  const names = (graph: { blocks: Record<string, unknown> }) => Object.values(graph.blocks).map((b) => (b as { name: string }).name).sort();

  it('is checked against the current blocks, as the applied edit is: a clash it already had is let be', () => {
    const current = { blocks: { start: block('start', 'starter', 'Start'), a: block('a', 'agent', 'Agent 1'), b: block('b', 'agent', 'Agent 1') }, edges: [] };
    expect(names(graphOfYaml(CLASH, current))).toEqual(['Agent 1', 'Agent 1', 'Start']);
    // Against a workflow without the clash, the import gives the second block the next free name.
    const fresh = { blocks: { start: block('start', 'starter', 'Start'), a: block('a', 'agent', 'Agent 1') }, edges: [] };
    expect(names(graphOfYaml(CLASH, fresh))).toEqual(['Agent 1', 'Agent 2', 'Start']);
  });
});

describe('a proposed edit the import mends', () => {
  it('says which starter it leaves out, and which references then read nothing, beside the diff', () => {
    const current = graphOfYaml(BEFORE);
    const yaml = BEFORE.replace('blocks:\n', 'blocks:\n  fresh:\n    type: starter\n    name: Start 2\n').replace('systemPrompt: Be brief.', 'systemPrompt: Be brief about <start2.input.topic>.');
    const diff = proposedDiff(yaml, current);
    expect(diff.blocks.removed).toEqual([]);
    expect(diff.blocks.added).toEqual([]);
    expect(diff.warnings).toEqual([
      'Left out starter block "Start 2" (fresh): a workflow can have only one starter block, and "Start" (start) is kept; these references to it now read nothing: <start2.input.topic> in "Writer" (writer)',
    ]);
    expect(proposedDiff(BEFORE, current)).not.toHaveProperty('warnings');
  });
});
