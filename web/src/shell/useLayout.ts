import { useSyncExternalStore } from 'react';
import { effectiveLayout, parseChoices, sameLayout, type Layout, type LayoutChoices, type LayoutScreen } from './layout';

/** Where the user's layout choices are kept, per browser. */
export const LAYOUT_STORAGE_KEY = 'weft.layout';

/**
 * This browser's storage, where a refusal (private mode, a full quota, storage turned off) is no
 * failure: what cannot be read reads as nothing kept, and what cannot be kept holds for this page only.
 */
const browserStorage = {
  read(key: string): string | null {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  /** Keeps `value` under `key`; null forgets it. */
  write(key: string, value: string | null): void {
    try {
      if (value === null) window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, value);
    } catch {
      // Refused: kept for this page only.
    }
  },
};

const readChoices = (): LayoutChoices => parseChoices(browserStorage.read(LAYOUT_STORAGE_KEY));

let choices: LayoutChoices = readChoices();
// The side panel opened for now by a selection, and the sidebar kept open for now when a workflow is
// opened from a screen that showed it — neither the user's choice (kept for this page only).
let panelShown = false;
let sidebarShown = false;
const drawn = (screen: LayoutScreen) => effectiveLayout(choices, window.innerWidth, { screen, panelShown, sidebarShown });
const current: Record<LayoutScreen, Layout> = { editor: drawn('editor'), home: drawn('home') };
const listeners = new Set<() => void>();

/** Works the layouts out again; listeners hear of it only when what is drawn changes (not on every pixel of a window resize). */
function update() {
  let changed = false;
  for (const screen of ['editor', 'home'] as const) {
    const next = drawn(screen);
    if (sameLayout(next, current[screen])) continue;
    current[screen] = next;
    changed = true;
  }
  if (!changed) return;
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

const snapshots: Record<LayoutScreen, () => Layout> = { editor: () => current.editor, home: () => current.home };

/** The layout drawn now on `screen`: the user's choices over the defaults for the window's width; follows both. */
export function useLayout(screen: LayoutScreen = 'editor'): Layout {
  return useSyncExternalStore(subscribe, snapshots[screen]);
}

/** A change of the user's layout choices as their settings take it (PATCH /api/settings `layout`): null forgets one. */
export type LayoutChoicesChange = { [K in keyof LayoutChoices]?: LayoutChoices[K] | null };

let saver: ((change: LayoutChoicesChange) => Promise<unknown> | void) | undefined;
/** Choices made in this browser that the user's settings have not confirmed yet (kept across a reload). */
const UNSYNCED_STORAGE_KEY = `${LAYOUT_STORAGE_KEY}.unsynced`;

function readUnsynced(): Set<string> {
  let parsed: unknown = [];
  try {
    parsed = JSON.parse(browserStorage.read(UNSYNCED_STORAGE_KEY) ?? '[]');
  } catch {
    // Unreadable: nothing is known to be unsynced.
  }
  return new Set(Array.isArray(parsed) ? parsed.filter((k): k is string => typeof k === 'string') : []);
}

function writeUnsynced(keys: Set<string>): void {
  browserStorage.write(UNSYNCED_STORAGE_KEY, keys.size === 0 ? null : JSON.stringify([...keys]));
}
let unsaved: LayoutChoicesChange = {};
let saveTimer: ReturnType<typeof setTimeout> | undefined;
/** How long after the last choice the choices are sent to the user's settings (a resize by keys is many choices). */
const SAVE_DELAY_MS = 500;

/** Where the user's choices are sent so they follow the user to other browsers (the signed-in app sets it); none: kept per browser only. */
export function saveLayoutChoicesWith(save: ((change: LayoutChoicesChange) => Promise<unknown> | void) | undefined): void {
  saver = save;
}

/** Sends the pending choices now; once the settings have them, they are no longer this browser's own. */
function send(): void {
  const change = unsaved;
  unsaved = {};
  const sent = Object.keys(change);
  if (sent.length === 0 || !saver) return;
  void Promise.resolve(saver(change)).then(() => {
    const left = readUnsynced();
    // A key chosen again meanwhile stays this browser's until that choice is sent too.
    for (const key of sent) if (!(key in unsaved)) left.delete(key);
    writeUnsynced(left);
  }, () => undefined);
}

function keep() {
  browserStorage.write(LAYOUT_STORAGE_KEY, JSON.stringify(choices));
  update();
}

/** Records an explicit choice of the user (it then wins over the defaults), keeps it for this browser and sends it to the user's settings. */
export function chooseLayout(change: LayoutChoices): void {
  choices = { ...choices, ...change };
  keep();
  if (!saver) return;
  writeUnsynced(new Set([...readUnsynced(), ...Object.keys(change)]));
  for (const [key, value] of Object.entries(change)) unsaved = { ...unsaved, [key]: key === 'panelWidth' && typeof value === 'number' ? Math.round(value) : (value ?? null) };
  clearTimeout(saveTimer);
  saveTimer = setTimeout(send, SAVE_DELAY_MS);
}

/** Takes the choices the user's settings hold (made in any browser) over this browser's, and keeps them here too. */
export function adoptLayoutChoices(saved: LayoutChoices): void {
  // A choice made here that the settings have not confirmed (a reload within the send delay, a failed
  // send) is newer than theirs: it stays, and is sent now.
  const mine = readUnsynced();
  const theirs = Object.fromEntries(Object.entries(parseChoices(JSON.stringify(saved))).filter(([key]) => !mine.has(key)));
  if (mine.size > 0 && saver) {
    for (const key of mine) if (key in choices) unsaved = { ...unsaved, [key]: (choices as Record<string, unknown>)[key] as never };
    clearTimeout(saveTimer);
    send();
  }
  const next = { ...choices, ...theirs };
  if (JSON.stringify(next) === JSON.stringify(choices)) return;
  choices = next;
  keep();
}

/** Opens or closes one of the layout's parts (as drawn on `screen`), as the user asked. */
export function toggleLayout(part: 'sidebarOpen' | 'paletteOpen' | 'panelOpen', screen: LayoutScreen = 'editor'): void {
  const open = current[screen][part];
  // Opening or closing the sidebar or side panel by hand is a choice: it replaces a showing for now.
  if (part === 'panelOpen') panelShown = false;
  if (part === 'sidebarOpen') sidebarShown = false;
  chooseLayout({ [part]: !open });
}

/**
 * Shows the side panel for now, when a block is selected or shown while it is closed, so the block's
 * form is seen — without recording it as the user's choice (a reload has it closed again).
 */
export function showPanelForNow(): void {
  if (panelShown) return;
  panelShown = true;
  update();
}

/** Ends `showPanelForNow`: a side panel the user closed is closed again (nothing is selected any more, or the canvas closed). */
export function endPanelShowing(): void {
  if (!panelShown) return;
  panelShown = false;
  update();
}

/**
 * Keeps the sidebar open for now when the user opens a workflow from a screen that shows it open (the
 * empty home, settings, where it starts open): the sidebar in use does not vanish under the pointer.
 * Not recorded as a choice: a reload, or the sidebar's toggle, ends it.
 */
export function keepSidebarForNow(): void {
  if (sidebarShown) return;
  sidebarShown = true;
  update();
}
