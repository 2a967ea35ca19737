import { describe, expect, it } from 'vitest';
import { collectPages, decodeCursor, encodeCursor, PAGE_LIMIT, type ProviderPage, type SelectorItem } from './paging.js';

const items = (prefix: string, n: number): SelectorItem[] => Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, name: `${prefix} ${i}` }));

/** A provider of pages by token ('' is the first), recording what was asked. */
function provider(pages: Record<string, ProviderPage>) {
  const asked: Array<string | undefined> = [];
  return {
    asked,
    read: (page: string | undefined) => {
      asked.push(page);
      const answer = pages[page ?? ''];
      if (!answer) throw new Error(`no page ${page}`);
      return Promise.resolve(answer);
    },
  };
}

describe('cursors', () => {
  it('round-trip a position and refuse anything else naming the field', () => {
    expect(decodeCursor(undefined)).toEqual({ skip: 0 });
    expect(decodeCursor(encodeCursor({ page: 'tok', skip: 3 }))).toEqual({ page: 'tok', skip: 3 });
    expect(decodeCursor(encodeCursor({ skip: 100 }))).toEqual({ skip: 100 });
    for (const bad of ['not-base64-json', Buffer.from('{"s":-1}').toString('base64url'), Buffer.from('{"p":3,"s":0}').toString('base64url'), Buffer.from('[]').toString('base64url')]) {
      expect(() => decodeCursor(bad), bad).toThrow('cursor is not a nextCursor this list answered');
    }
  });
});

describe('collectPages', () => {
  it('answers one provider page and its next token as the cursor', async () => {
    const p = provider({ '': { items: items('a', 3), next: 'p2' } });
    const page = await collectPages(p.read, { skip: 0 });
    expect(page.items.map((i) => i.id)).toEqual(['a0', 'a1', 'a2']);
    expect(decodeCursor(page.nextCursor)).toEqual({ page: 'p2', skip: 0 });
    expect(p.asked).toEqual([undefined]);
  });

  it('cuts a page longer than 100 items and goes on where it stopped, nothing skipped or repeated', async () => {
    const p = provider({ '': { items: items('a', 150) } });
    const first = await collectPages(p.read, { skip: 0 });
    expect(first.items).toHaveLength(PAGE_LIMIT);
    const second = await collectPages(p.read, decodeCursor(first.nextCursor));
    expect(second).toEqual({ items: items('a', 150).slice(100) });
    expect(second.nextCursor).toBeUndefined();
  });

  it('filters by name here, reading on through pages to fill the answer (at most 5 pages)', async () => {
    const p = provider({ '': { items: items('x', 4), next: 'p2' }, p2: { items: [{ id: 'g1', name: 'General' }], next: 'p3' }, p3: { items: [{ id: 'g2', name: 'general-2' }] } });
    expect(await collectPages(p.read, { skip: 0 }, { filter: 'GEN' })).toEqual({ items: [{ id: 'g1', name: 'General' }, { id: 'g2', name: 'general-2' }] });
    const endless = provider(Object.fromEntries(['', 'p1', 'p2', 'p3', 'p4', 'p5'].map((k, i) => [k, { items: items('y', 2), next: `p${i + 1}` }])));
    const page = await collectPages(endless.read, { skip: 0 }, { filter: 'nothing' });
    expect(page.items).toEqual([]);
    expect(endless.asked).toHaveLength(5);
    expect(decodeCursor(page.nextCursor)).toEqual({ page: 'p5', skip: 0 });
  });
});
