import { describe, expect, it } from 'vitest';
import { reloadOnStaleChunk } from './staleChunks';

/** A window with only what the listener uses: its events and a counted reload. */
function fakeWindow() {
  const target = new EventTarget();
  const win = Object.assign(target, { location: { reloads: 0, reload() { this.reloads++; } } });
  return win as unknown as Window & { location: { reloads: number } };
}

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v) } as Storage;
}

describe('reloadOnStaleChunk', () => {
  it('reloads once when a file loaded on demand fails, not again within a minute, and again after it', () => {
    const win = fakeWindow();
    let clock = 1_000_000;
    reloadOnStaleChunk(win, memoryStorage(), () => clock);
    win.dispatchEvent(new Event('vite:preloadError'));
    expect(win.location.reloads).toBe(1);
    clock += 30_000;
    win.dispatchEvent(new Event('vite:preloadError'));
    expect(win.location.reloads).toBe(1);
    clock += 31_000;
    win.dispatchEvent(new Event('vite:preloadError'));
    expect(win.location.reloads).toBe(2);
  });
});
