import { describe, expect, it } from 'vitest';
import { CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { EditorState } from '@codemirror/state';
import type { SubBlockConfig } from '@weft/catalog';
import { codeFieldName, codeHint, codeLanguage } from './CodeField';
import { referenceChange, referenceCompletions, type ReferenceChoices } from './codeCompletion';

const choices: ReferenceChoices = {
  refs: [
    { insert: '<start.input>', group: 'Start' },
    { insert: '<agent1.content>', group: 'Agent 1' },
  ],
  envKeys: ['OPENAI_API_KEY', 'BASE_URL'],
  refsAllowed: true,
};

/** What the source offers with the caret at the end of `doc`, as typing would ask. */
async function offered(doc: string, given: ReferenceChoices | null = choices) {
  const state = EditorState.create({ doc, selection: { anchor: doc.length } });
  const result = (await referenceCompletions(() => given)(new CompletionContext(state, doc.length, false))) as CompletionResult | null;
  return result && { typed: doc.slice(result.from), labels: result.options.map((o) => o.label) };
}

describe('code fields', () => {
  it('are named by their title, or their id as words — the hint apart ("codeJavaScript" before)', () => {
    const field = (f: Partial<SubBlockConfig>) => ({ id: 'code', type: 'code', ...f }) as SubBlockConfig;
    // The function block's code field has no title: "Code", with "JavaScript" beside it, not in it.
    expect(codeFieldName(field({}), 'code')).toBe('Code');
    expect(codeHint(codeLanguage(field({})))).toBe('JavaScript');
    expect(codeFieldName(field({ id: 'responseFormat' }), 'responseFormat')).toBe('Response format');
    expect(codeFieldName(field({ id: 'data', title: 'Response Data' }), 'Response Data')).toBe('Response Data');
    expect(codeHint(codeLanguage(field({ id: 'data', title: 'Response Data' })))).toBe('JSON');
  });

  it('offer upstream outputs on `<` and environment variables on `{{`, narrowed by what follows', async () => {
    expect(await offered('return ')).toBeNull();
    expect(await offered('return <')).toEqual({ typed: '<', labels: ['<start.input>', '<agent1.content>'] });
    expect(await offered('const q = <start.')).toMatchObject({ typed: '<start.' });
    expect(await offered('fetch("{{')).toEqual({ typed: '{{', labels: ['{{OPENAI_API_KEY}}', '{{BASE_URL}}'] });
    expect(await offered('const k = {{OPEN')).toMatchObject({ typed: '{{OPEN' });
    // A field taking no connections offers no outputs (variables still); no form, no menu.
    expect(await offered('<', { ...choices, refsAllowed: false })).toBeNull();
    expect(await offered('{{', { ...choices, refsAllowed: false })).toMatchObject({ typed: '{{' });
    expect(await offered('<', null)).toBeNull();
    // Names the runner reads with more than letters and digits, narrowed as a text field narrows (what follows `<`, anywhere, in order given).
    const named = { ...choices, refs: [{ insert: '<agent-2.content>', group: 'Agent-2' }, { insert: '<résumé.content>', group: 'Résumé' }, ...choices.refs] };
    expect(await offered('return <agent-', named)).toEqual({ typed: '<agent-', labels: ['<agent-2.content>'] });
    expect(await offered('return <rés', named)).toEqual({ typed: '<rés', labels: ['<résumé.content>'] });
    expect(await offered('return <content', named)).toEqual({ typed: '<content', labels: ['<agent-2.content>', '<résumé.content>', '<agent1.content>'] });
  });

  it('narrow an open menu at once as characters are typed, so Enter never meets it disabled while the source is asked again', async () => {
    const source = referenceCompletions(() => choices);
    const at = (doc: string) => new CompletionContext(EditorState.create({ doc, selection: { anchor: doc.length } }), doc.length, false);
    const opened = (await source(at('return <'))) as CompletionResult;
    const narrowed = opened.update?.(opened, 7, 11, at('return <age'));
    expect(narrowed?.options.map((o) => o.label)).toEqual(['<agent1.content>']);
    expect(narrowed?.from).toBe(7);
    // Text that can no longer be a reference, or matches nothing, closes it.
    expect(opened.update?.(opened, 7, 9, at('return < '))).toBeNull();
    expect(opened.update?.(opened, 7, 10, at('return <zz'))).toBeNull();
  });

  it('leave ordinary JavaScript alone: a comparison, <=, a closing tag close the menu', async () => {
    expect(await offered('if (a < b')).toBeNull();
    expect(await offered('if (a < ')).toBeNull();
    expect(await offered('a <= ')).toBeNull();
    expect(await offered('const html = `</')).toBeNull();
    expect(await offered('const o = { a: 1 }')).toBeNull();
  });

  it('put the chosen reference in place of what was typed, taking in the braces the editor closed', () => {
    const at = (doc: string, caret: number, text: string) => {
      const state = EditorState.create({ doc });
      const change = referenceChange(state, doc.lastIndexOf(text.startsWith('{{') ? '{{' : '<', caret), caret, text);
      return doc.slice(0, change.from) + change.insert + doc.slice(change.to);
    };
    expect(at('return <sta;', 11, '<start.input>')).toBe('return <start.input>;');
    // `{` closed by the editor as typed: `{{}}` with the caret between.
    expect(at('const k = "{{OP}}";', 15, '{{OPENAI_API_KEY}}')).toBe('const k = "{{OPENAI_API_KEY}}";');
    expect(at('const k = "{{OP";', 15, '{{OPENAI_API_KEY}}')).toBe('const k = "{{OPENAI_API_KEY}}";');
  });
});
