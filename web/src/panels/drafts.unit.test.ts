import { afterEach, describe, expect, it } from 'vitest';
import { flushDrafts, guardDrafts, leavingLoses, openDraft, saveLabel, unsentDrafts } from './drafts';

const opened: Array<{ close(): void }> = [];
const open = (flush: () => void = () => {}) => {
  const entry = openDraft(flush);
  opened.push(entry);
  return entry;
};
afterEach(() => {
  for (const entry of opened.splice(0)) entry.close();
});

/** A page whose visibility the test sets. */
function page() {
  const target = new EventTarget();
  const doc = { visibilityState: 'visible' as DocumentVisibilityState };
  const stop = guardDrafts(target as unknown as Window, doc);
  const leave = () => {
    const event = new Event('beforeunload', { cancelable: true }) as BeforeUnloadEvent;
    // A browser's BeforeUnloadEvent lets returnValue be set; node's Event does not.
    Object.defineProperty(event, 'returnValue', { value: true, writable: true });
    target.dispatchEvent(event);
    return event.defaultPrevented;
  };
  return { target, doc, stop, leave };
}

describe('fields holding typed text not sent yet', () => {
  it('are counted while unsent and no longer once sent or gone', () => {
    const a = open();
    const b = open();
    a.setDirty(true);
    b.setDirty(true);
    expect(unsentDrafts()).toBe(2);
    a.setDirty(false);
    expect(unsentDrafts()).toBe(1);
    b.close();
    expect(unsentDrafts()).toBe(0);
  });

  it('all send when the page is hidden, and only those with unsent text', () => {
    const sentBy: string[] = [];
    const a = open(() => sentBy.push('a'));
    open(() => sentBy.push('b'));
    a.setDirty(true);
    const p = page();
    p.target.dispatchEvent(new Event('visibilitychange'));
    expect(sentBy).toEqual([]);
    p.doc.visibilityState = 'hidden';
    p.target.dispatchEvent(new Event('visibilitychange'));
    expect(sentBy).toEqual(['a']);
    p.stop();
  });

  it('send when the page is left, and leaving asks nothing once they went', () => {
    const a = open(() => a.setDirty(false));
    a.setDirty(true);
    const p = page();
    expect(p.leave()).toBe(false);
    expect(unsentDrafts()).toBe(0);
    a.setDirty(true);
    p.target.dispatchEvent(new Event('pagehide'));
    expect(unsentDrafts()).toBe(0);
    p.stop();
  });

  it('make leaving ask first when their text was refused (it stays unsent)', () => {
    const a = open(() => {});
    a.setDirty(true);
    const p = page();
    expect(p.leave()).toBe(true);
    expect(leavingLoses()).toBe(true);
    p.stop();
    a.setDirty(false);
    expect(leavingLoses()).toBe(false);
  });

  it('are no longer listened for once the page stops guarding', () => {
    const sentBy: string[] = [];
    const a = open(() => sentBy.push('a'));
    a.setDirty(true);
    const p = page();
    p.stop();
    p.target.dispatchEvent(new Event('pagehide'));
    expect(sentBy).toEqual([]);
    flushDrafts();
    expect(sentBy).toEqual(['a']);
  });
});

describe('the header’s save pill', () => {
  it('says unsaved while a field holds unsent text, saving while edits await the server, else saved', () => {
    expect(saveLabel(0, 1)).toEqual({ text: 'unsaved', warn: true });
    expect(saveLabel(2, 1)).toEqual({ text: 'unsaved', warn: true });
    expect(saveLabel(2, 0)).toEqual({ text: 'saving 2', warn: true });
    expect(saveLabel(0, 0)).toEqual({ text: 'saved', warn: false });
  });
});
