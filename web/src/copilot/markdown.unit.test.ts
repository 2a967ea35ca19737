import { describe, expect, it } from 'vitest';
import { parseMarkdown } from './markdown';

describe('the copilot answer’s Markdown', () => {
  it('reads paragraphs with bold and code, lists and fenced code', () => {
    const text = 'Added **Notify** after `agent1`.\nIt posts to Slack.\n\nNext:\n- set the channel\n- deploy\n1. one\n2. two\n```yaml\nblocks: {}\n```\nDone.';
    expect(parseMarkdown(text)).toEqual([
      {
        kind: 'paragraph',
        spans: [
          { kind: 'text', text: 'Added ' },
          { kind: 'bold', text: 'Notify' },
          { kind: 'text', text: ' after ' },
          { kind: 'code', text: 'agent1' },
          { kind: 'text', text: '.\nIt posts to Slack.' },
        ],
      },
      { kind: 'paragraph', spans: [{ kind: 'text', text: 'Next:' }] },
      { kind: 'list', ordered: false, items: [[{ kind: 'text', text: 'set the channel' }], [{ kind: 'text', text: 'deploy' }]] },
      { kind: 'list', ordered: true, items: [[{ kind: 'text', text: 'one' }], [{ kind: 'text', text: 'two' }]] },
      { kind: 'code', text: 'blocks: {}' },
      { kind: 'paragraph', spans: [{ kind: 'text', text: 'Done.' }] },
    ]);
  });

  it('keeps what it does not know as typed, and a fence still streaming runs to the end', () => {
    expect(parseMarkdown('2 * 3 = 6, a ** b')).toEqual([{ kind: 'paragraph', spans: [{ kind: 'text', text: '2 * 3 = 6, a ** b' }] }]);
    expect(parseMarkdown('Here:\n```\nconst a = 1')).toEqual([
      { kind: 'paragraph', spans: [{ kind: 'text', text: 'Here:' }] },
      { kind: 'code', text: 'const a = 1' },
    ]);
  });
});
