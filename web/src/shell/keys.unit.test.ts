import { describe, expect, it } from 'vitest';
import { isSidebarShortcut } from './keys';

const press = (key: string, mods: { ctrlKey?: boolean; metaKey?: boolean; shiftKey?: boolean; altKey?: boolean } = {}) => ({ ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods, key });

describe('the sidebar shortcut', () => {
  it('is Ctrl+\\ or ⌘+\\, also with Alt (AltGr on German and other layouts arrives as Ctrl+Alt)', () => {
    expect(isSidebarShortcut(press('\\', { ctrlKey: true }))).toBe(true);
    expect(isSidebarShortcut(press('\\', { metaKey: true }))).toBe(true);
    expect(isSidebarShortcut(press('\\', { ctrlKey: true, altKey: true }))).toBe(true);
  });

  it('is not a bare backslash, another key, or with Shift', () => {
    expect(isSidebarShortcut(press('\\'))).toBe(false);
    expect(isSidebarShortcut(press('\\', { altKey: true }))).toBe(false);
    expect(isSidebarShortcut(press('ß', { ctrlKey: true, altKey: true }))).toBe(false);
    expect(isSidebarShortcut(press('|', { ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(isSidebarShortcut(press('\\', { ctrlKey: true, shiftKey: true }))).toBe(false);
  });
});
