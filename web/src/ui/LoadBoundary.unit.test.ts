import { describe, expect, it, vi } from 'vitest';
import { isValidElement, type ReactElement, type ReactNode } from 'react';
import { isChunkLoadError, LoadBoundary } from './LoadBoundary';

const chromium = new TypeError('Failed to fetch dynamically imported module: http://weft.example/assets/DeployDialog-abc123.js');
const safari = new TypeError('Importing a module script failed.');
const firefox = new TypeError('error loading dynamically imported module: http://weft.example/assets/layout-abc123.js');
const webpack = Object.assign(new Error('Loading chunk 7 failed.'), { name: 'ChunkLoadError' });
const bug = new TypeError("Cannot read properties of undefined (reading 'schedules')");

/**
 * The boundary as React drives it after a child threw: the state from `getDerivedStateFromError`,
 * `componentDidCatch`, then `render` — what it draws, or what it throws on to the boundary above.
 */
function caught(thrown: unknown, props: { fallback?: (message: string) => ReactNode } = {}) {
  const onError = vi.fn<(message: string) => void>();
  const boundary = new LoadBoundary({ children: 'the part', onError, ...props });
  boundary.state = LoadBoundary.getDerivedStateFromError(thrown);
  boundary.componentDidCatch(thrown, { componentStack: '' });
  return { onError, render: () => boundary.render() };
}

describe('isChunkLoadError', () => {
  it("knows each browser's words for a file loaded on demand that did not load, and webpack's ChunkLoadError", () => {
    for (const error of [chromium, safari, firefox, webpack]) expect(isChunkLoadError(error)).toBe(true);
  });

  it('is false for any other error, and for a thrown value that is no error', () => {
    for (const thrown of [bug, new Error('Request failed'), 'dynamically imported module', null, undefined, 42]) expect(isChunkLoadError(thrown)).toBe(false);
  });
});

describe('LoadBoundary', () => {
  it('draws its children while nothing failed', () => {
    expect(new LoadBoundary({ children: 'the part' }).render()).toBe('the part');
  });

  it('a file that did not load: the message in the part’s place, and onError is told', () => {
    const { onError, render } = caught(chromium);
    const drawn = render() as ReactElement<{ role: string; children: string }>;
    const message = `This part of Weft did not load (${chromium.message}). Reload the page to get the latest version.`;
    expect(isValidElement(drawn)).toBe(true);
    expect(drawn.props).toMatchObject({ role: 'alert', children: message });
    expect(onError).toHaveBeenCalledWith(message);
    expect(caught(safari, { fallback: (m) => `fallback: ${m}` }).render()).toBe(`fallback: This part of Weft did not load (${safari.message}). Reload the page to get the latest version.`);
  });

  it('a bug in the part is thrown on, not drawn as a file that did not load, and onError is not told', () => {
    const { onError, render } = caught(bug, { fallback: (m) => m });
    expect(render).toThrow(bug);
    expect(onError).not.toHaveBeenCalled();
  });
});
