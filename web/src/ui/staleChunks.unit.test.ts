import { describe, expect, it } from 'vitest';
import { reloadOnStaleChunk, STALE_BUILD_EVENT } from './staleChunks';

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

/** Vite's event: cancelable, rethrown unless prevented. */
const preloadError = () => new Event('vite:preloadError', { cancelable: true });

describe('reloadOnStaleChunk', () => {
  it('reloads once when a file loaded on demand fails, not again within a minute, and again after it', () => {
    const win = fakeWindow();
    let clock = 1_000_000;
    reloadOnStaleChunk(win, memoryStorage(), () => clock, () => false);
    win.dispatchEvent(preloadError());
    expect(win.location.reloads).toBe(1);
    clock += 30_000;
    win.dispatchEvent(preloadError());
    expect(win.location.reloads).toBe(1);
    clock += 31_000;
    win.dispatchEvent(preloadError());
    expect(win.location.reloads).toBe(2);
  });

  it('prevents Vite from rethrowing the error when it reloads, and only then', () => {
    const win = fakeWindow();
    let clock = 1_000_000;
    reloadOnStaleChunk(win, memoryStorage(), () => clock, () => false);
    const first = preloadError();
    win.dispatchEvent(first);
    expect(first.defaultPrevented).toBe(true);
    clock += 1_000;
    const second = preloadError();
    win.dispatchEvent(second);
    expect(second.defaultPrevented).toBe(false);
  });

  it('does not reload while edits await the server: it asks for the "Weft was updated" toast instead, and reloads once they are saved', () => {
    const win = fakeWindow();
    let unsaved = true;
    let told = 0;
    win.addEventListener(STALE_BUILD_EVENT, () => told++);
    reloadOnStaleChunk(win, memoryStorage(), () => 1_000_000, () => unsaved);
    const event = preloadError();
    win.dispatchEvent(event);
    expect(win.location.reloads).toBe(0);
    expect(event.defaultPrevented).toBe(false);
    expect(told).toBe(1);
    unsaved = false;
    win.dispatchEvent(preloadError());
    expect(win.location.reloads).toBe(1);
  });
});
