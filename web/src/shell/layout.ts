/**
 * The editor's layout: whether the workflow sidebar, the block palette and the side panel are open,
 * and how wide the palette and the side panel are. Pure: the window's width is passed in, and the
 * user's explicit choices (kept per browser in localStorage by `useLayout`) win over the defaults.
 */

/** What the window shows: a workflow's canvas (`editor`), or no workflow (`home`: the empty home, a settings page). */
export type LayoutScreen = 'editor' | 'home';

/** What is drawn besides the window's width and the user's choices. */
export interface LayoutContext {
  /** Defaults to `editor`. */
  screen?: LayoutScreen;
  /** The side panel shown for now (a block was selected or shown while it was closed), not chosen: never stored. */
  panelShown?: boolean;
  /** The sidebar kept open for now (a workflow was opened from a screen that showed it), not chosen: never stored. */
  sidebarShown?: boolean;
}

/** What the user chose, field by field; a field left out (or undefined: the choice forgotten) follows the window's width. */
export interface LayoutChoices {
  sidebarOpen?: boolean;
  paletteOpen?: boolean;
  panelOpen?: boolean;
  panelWidth?: number;
}

/** The layout drawn. */
export interface Layout {
  sidebarOpen: boolean;
  paletteOpen: boolean;
  panelOpen: boolean;
  /** The block palette's width when open, px. */
  paletteWidth: number;
  /** The side panel's width when open, px (within `panelWidthLimits`). */
  panelWidth: number;
}

/** Windows this wide or narrower (a 1280 or 1366 px laptop) start compact: the canvas gets at least 60% of the width. */
export const COMPACT_MAX_WIDTH = 1366;
/** Windows this wide or narrower (a 1440 px laptop and below) start the editor with the sidebar collapsed; wider, everything starts open. */
export const SIDEBAR_COLLAPSED_MAX_WIDTH = 1440;
/** The width of a collapsed sidebar or palette: a rail with the button that opens it. */
export const RAIL_WIDTH = 40;
export const PANEL_MIN_WIDTH = 260;
export const PANEL_MAX_WIDTH = 720;

/**
 * The layout a window of `windowWidth` px starts with when the user has chosen nothing. With no
 * workflow open (`home`) there is no canvas to make room for, so the sidebar — the way to a workflow,
 * the workspaces, settings and sign-out — starts open at any width.
 */
export function layoutDefaults(windowWidth: number, screen: LayoutScreen = 'editor'): Layout {
  const sidebarOpen = screen === 'home' || windowWidth > SIDEBAR_COLLAPSED_MAX_WIDTH;
  if (windowWidth <= COMPACT_MAX_WIDTH) return { sidebarOpen, paletteOpen: true, panelOpen: true, paletteWidth: 176, panelWidth: 280 };
  return { sidebarOpen, paletteOpen: true, panelOpen: true, paletteWidth: 224, panelWidth: 320 };
}

/** The side panel's narrowest and widest: never more than half the window, never less than its minimum. */
export function panelWidthLimits(windowWidth: number): { min: number; max: number } {
  return { min: PANEL_MIN_WIDTH, max: Math.max(PANEL_MIN_WIDTH, Math.min(PANEL_MAX_WIDTH, Math.floor(windowWidth / 2))) };
}

/** `width` rounded and held within the side panel's limits for this window. */
export function clampPanelWidth(width: number, windowWidth: number): number {
  const { min, max } = panelWidthLimits(windowWidth);
  return Math.min(max, Math.max(min, Math.round(width)));
}

/** The layout drawn: the user's choices over the window's defaults (the sidebar and side panel also open while shown for now), the panel's width held within its limits. */
export function effectiveLayout(choices: LayoutChoices, windowWidth: number, { screen = 'editor', panelShown = false, sidebarShown = false }: LayoutContext = {}): Layout {
  const defaults = layoutDefaults(windowWidth, screen);
  return {
    sidebarOpen: sidebarShown || (choices.sidebarOpen ?? defaults.sidebarOpen),
    paletteOpen: choices.paletteOpen ?? defaults.paletteOpen,
    panelOpen: panelShown || (choices.panelOpen ?? defaults.panelOpen),
    paletteWidth: defaults.paletteWidth,
    panelWidth: clampPanelWidth(choices.panelWidth ?? defaults.panelWidth, windowWidth),
  };
}

/** Whether two layouts draw the same. */
export function sameLayout(a: Layout, b: Layout): boolean {
  return a.sidebarOpen === b.sidebarOpen && a.paletteOpen === b.paletteOpen && a.panelOpen === b.panelOpen && a.paletteWidth === b.paletteWidth && a.panelWidth === b.panelWidth;
}

/** The choices stored as text (`localStorage`); anything unreadable or of the wrong type is left out, never thrown. */
export function parseChoices(text: string | null): LayoutChoices {
  if (!text) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof raw !== 'object' || raw === null) return {};
  const record: Record<string, unknown> = Object.fromEntries(Object.entries(raw));
  const choices: LayoutChoices = {};
  for (const key of ['sidebarOpen', 'paletteOpen', 'panelOpen'] as const) {
    const value = record[key];
    if (typeof value === 'boolean') choices[key] = value;
  }
  const width = record.panelWidth;
  if (typeof width === 'number' && Number.isFinite(width) && width > 0) choices.panelWidth = Math.round(width);
  return choices;
}
