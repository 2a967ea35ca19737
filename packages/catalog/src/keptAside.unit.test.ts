import { describe, expect, it } from 'vitest';
import { KEEP_ASIDE_OVER_BYTES, overBytes, utf8Bytes } from './keptAside.js';

describe('the kept-aside measure counts UTF-8 bytes, not UTF-16 units', () => {
  it('agrees with Buffer.byteLength on ASCII, accents, CJK, emoji and a lone surrogate', () => {
    for (const text of ['', 'plain ascii', 'é', 'naïve café', '漢字かな交じり文', '👍🏽 ok', 'a\u{10348}b', '\ud800', 'x\udc00y', JSON.stringify({ 名前: '値', emoji: '🎉' })]) {
      expect(utf8Bytes(text)).toBe(Buffer.byteLength(text, 'utf8'));
    }
  });

  it('200,000 CJK characters (about 600 KB) are over the 256 KB threshold though their length is under it', () => {
    const json = JSON.stringify({ result: '字'.repeat(200_000) });
    expect(json.length).toBeLessThan(KEEP_ASIDE_OVER_BYTES);
    expect(utf8Bytes(json)).toBe(Buffer.byteLength(json));
    expect(overBytes(json, KEEP_ASIDE_OVER_BYTES)).toBe(true);
  });

  it('is exact at the limit: a text of exactly the limit stays, one byte more is over', () => {
    const limit = 3_000;
    const atLimit = 'é'.repeat(1_500); // 3,000 bytes in 1,500 units
    expect(overBytes(atLimit, limit)).toBe(false);
    expect(overBytes(`${atLimit}a`, limit)).toBe(true);
    expect(overBytes('a'.repeat(limit + 1), limit)).toBe(true);
    expect(overBytes('字'.repeat(1_000), limit)).toBe(false);
    expect(overBytes('字'.repeat(1_001), limit)).toBe(true);
  });
});
