import { describe, expect, it } from 'vitest';
import { CHARS_PER_TOKEN, DEFAULT_CHUNKING, chunkText, chunkingOptions, estimateTokens } from './chunking.js';

/** A long text of numbered sentences, so every piece of it can be found again. */
function sentences(n: number): string {
  return Array.from({ length: n }, (_, i) => `Sentence number ${i} tells a small fact about item ${i}.`).join(' ');
}

describe('chunkText', () => {
  it('uses the spec defaults: 1024-token chunks (4,096 characters), 200-token overlap, 100-character minimum', () => {
    expect(DEFAULT_CHUNKING).toEqual({ chunkSize: 1024, chunkOverlap: 200, minCharactersPerChunk: 100 });
    const text = sentences(600); // ~33,000 characters
    const chunks = chunkText(text);
    expect(chunks.length).toBeGreaterThan(8);
    for (const c of chunks) {
      expect(c.content.length).toBeLessThanOrEqual(1024 * CHARS_PER_TOKEN);
      expect(c.content.length).toBeGreaterThanOrEqual(100);
      expect(text.slice(c.start, c.end)).toBe(c.content);
    }
    // Consecutive chunks overlap by about 200 tokens: the next starts within the last 800 characters (at a word start).
    for (let i = 1; i < chunks.length; i++) {
      const prev = chunks[i - 1]!;
      const cur = chunks[i]!;
      const overlap = prev.end - cur.start;
      expect(overlap).toBeGreaterThan(200 * CHARS_PER_TOKEN - 40);
      expect(overlap).toBeLessThanOrEqual(200 * CHARS_PER_TOKEN);
      expect(text[cur.start - 1]).toMatch(/\s/);
    }
    // Nothing is lost: the chunks cover the text from its start to its end.
    expect(chunks[0]!.start).toBe(0);
    expect(chunks[chunks.length - 1]!.end).toBe(text.length);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.start).toBeLessThan(chunks[i - 1]!.end);
  });

  it('ends chunks at paragraph, then sentence breaks in their second half', () => {
    const para = 'A'.repeat(2500) + '.\n\n' + 'B'.repeat(2500) + '. ' + 'C'.repeat(900);
    const chunks = chunkText(para, { chunkSize: 1024, chunkOverlap: 0, minCharactersPerChunk: 100 });
    expect(chunks[0]!.content).toBe(`${'A'.repeat(2500)}.`);
    expect(chunks[1]!.content).toBe(`${'B'.repeat(2500)}. ${'C'.repeat(900)}`);
  });

  it('keeps a short text whole, and lets a short last chunk reach back to the minimum', () => {
    expect(chunkText('Just ten characters here.').map((c) => c.content)).toEqual(['Just ten characters here.']);
    const text = `${'word '.repeat(160).trim()}\n\nend of it`; // 810 characters in chunks of 400: the last holds 'end of it' alone
    const chunks = chunkText(text, { chunkSize: 100, chunkOverlap: 0, minCharactersPerChunk: 150 });
    expect(chunks).toHaveLength(3);
    const last = chunks[chunks.length - 1]!;
    expect(last.content.endsWith('end of it')).toBe(true);
    expect(last.content.length).toBeGreaterThanOrEqual(150);
    expect(last.content.length).toBeLessThan(160);
  });

  it('normalises line ends and never loops on text without breaks', () => {
    expect(chunkText('line one\r\nline two').map((c) => c.content)).toEqual(['line one\nline two']);
    const solid = 'x'.repeat(10_000);
    const chunks = chunkText(solid, { chunkSize: 1000, chunkOverlap: 100, minCharactersPerChunk: 100 });
    expect(chunks.map((c) => c.content.length)).toEqual([4000, 4000, 2800]);
  });

  it('estimates tokens at four characters each', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcde')).toBe(2);
  });
});

describe('chunkingOptions', () => {
  it('fills defaults and checks each field by name', () => {
    expect(chunkingOptions(undefined, 'processingOptions')).toEqual(DEFAULT_CHUNKING);
    expect(chunkingOptions({ chunkSize: 512, recipe: 'default', lang: 'en' }, 'processingOptions')).toEqual({ chunkSize: 512, chunkOverlap: 200, minCharactersPerChunk: 100 });
    expect(chunkingOptions({ chunkSize: 200 }, 'p')).toEqual({ chunkSize: 200, chunkOverlap: 99, minCharactersPerChunk: 100 });
    expect(() => chunkingOptions({ chunkSize: 99 }, 'processingOptions')).toThrow('processingOptions.chunkSize must be a whole number from 100 to 8000');
    expect(() => chunkingOptions({ chunkSize: 1.5 }, 'processingOptions')).toThrow('processingOptions.chunkSize must be a whole number');
    expect(() => chunkingOptions({ chunkOverlap: 512 }, 'processingOptions')).toThrow('processingOptions.chunkOverlap must be a whole number from 0 to 511');
    expect(() => chunkingOptions({ minCharactersPerChunk: 0 }, 'chunkingConfig')).toThrow('chunkingConfig.minCharactersPerChunk must be a whole number from 1 to 2048');
    expect(() => chunkingOptions('big', 'chunkingConfig')).toThrow('chunkingConfig must be an object');
  });
});
