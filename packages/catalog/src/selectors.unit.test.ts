import { describe, expect, it } from 'vitest';
import { blockReferenceIn, isReference, replaceEnvReferences } from './selectors.js';

describe('references in a selector’s values ({{KEY}}, <block.path>)', () => {
  it('tells a reference from an item id', () => {
    for (const id of ['CMANY129', 'PROJ-2', 'a<b', '{{}}', '{single}', '<>', '< spaced >', 'x > y < z', '']) expect(isReference(id), id).toBe(false);
    for (const ref of ['{{SLACK_CHANNEL}}', '{{my.key-1}}', 'prefix {{K}} suffix', '<start.input>', '<agent1.content.items[0]>', '<start>', 'C1 <api.data.id>']) expect(isReference(ref), ref).toBe(true);
  });

  it('fills in each {{KEY}} by its key, leaving the rest as written', () => {
    const env: Record<string, string> = { SITE: 'acme', ID: '42' };
    expect(replaceEnvReferences('{{SITE}}.atlassian.net/{{ID}}/{{ID}}', (key) => env[key] ?? '?')).toBe('acme.atlassian.net/42/42');
    expect(replaceEnvReferences('{{ SPACED }} <b.c> plain', () => 'x')).toBe('{{ SPACED }} <b.c> plain');
    // Called again, the same answer (no state kept between calls).
    expect(replaceEnvReferences('{{ID}}', (key) => env[key] ?? '?')).toBe('42');
  });

  it('names the first block output reference, or none', () => {
    expect(blockReferenceIn('team <start.input.team> and <agent.content>')).toBe('<start.input.team>');
    expect(blockReferenceIn('<start>')).toBe('<start>');
    expect(blockReferenceIn('{{KEY}} a<b c>d')).toBeUndefined();
  });
});
