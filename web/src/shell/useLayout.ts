import { useSyncExternalStore } from 'react';
import { effectiveLayout, parseChoices, sameLayout, type Layout, type LayoutChoices } from './layout';

/** Where the user's layout choices are kept, per browser. */
export const LAYOUT_STORAGE_KEY = 'weft.layout';

function readChoices(): LayoutChoices {
  try {
    return parseChoices(window.localStorage.getItem(LAYOUT_STORAGE_KEY));
  } catch {
    return {};
  }
}

let choices: LayoutChoices = readChoices();
let current: Layout = effectiveLayout(choices, window.innerWidth);
const listeners = new Set<() => void>();

/** Works the layout out again; listeners hear of it only when what is drawn changes (not on every pixel of a window resize). */
function update() {
  const next = effectiveLayout(choices, window.innerWidth);
  if (sameLayout(next, current)) return;
  current = next;
  for (const listener of listeners) listener();
}

const onStorage = (e: StorageEvent) => {
  if (e.key !== LAYOUT_STORAGE_KEY) return;
  choices = readChoices();
  update();
};

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) {
    window.addEventListener('resize', update);
    window.addEventListener('storage', onStorage);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    window.removeEventListener('resize', update);
    window.removeEventListener('storage', onStorage);
  };
}

const snapshot = () => current;

/** The layout drawn now: the user's choices over the defaults for the window's width; follows both. */
export function useLayout(): Layout {
  return useSyncExternalStore(subscribe, snapshot);
}

/** Records an explicit choice of the user (it then wins over the defaults) and keeps it for this browser. */
export function chooseLayout(change: LayoutChoices): void {
  choices = { ...choices, ...change };
  try {
    window.localStorage.setItem(LAYOUT_STORAGE_KEY, JSON.stringify(choices));
  } catch {
    // Storage refused (private mode, quota): the choice holds for this page only.
  }
  update();
}

/** Opens or closes one of the layout's parts, as the user asked. */
export function toggleLayout(part: 'sidebarOpen' | 'paletteOpen' | 'panelOpen'): void {
  chooseLayout({ [part]: !current[part] });
}
