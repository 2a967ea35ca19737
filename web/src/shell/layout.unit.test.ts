import { describe, expect, it } from 'vitest';
import { clampPanelWidth, effectiveLayout, layoutDefaults, parseChoices, PANEL_MAX_WIDTH, PANEL_MIN_WIDTH, RAIL_WIDTH, sameLayout } from './layout';

/** The canvas's share of the window: what the sidebar (or its rail), the palette and the side panel leave. */
const canvasShare = (windowWidth: number) => {
  const l = layoutDefaults(windowWidth, 'editor');
  const left = (l.sidebarOpen ? 256 : RAIL_WIDTH) + (l.paletteOpen ? l.paletteWidth : RAIL_WIDTH);
  return (windowWidth - left - (l.panelOpen ? l.panelWidth : 0)) / windowWidth;
};

describe('the layout by window width', () => {
  it('starts a laptop compact: the sidebar collapsed, a narrower palette and panel, the canvas over 60% of the width', () => {
    for (const width of [1280, 1366]) {
      expect(layoutDefaults(width)).toMatchObject({ sidebarOpen: false, paletteOpen: true, panelOpen: true, paletteWidth: 176, panelWidth: 280 });
      expect(canvasShare(width)).toBeGreaterThanOrEqual(0.6);
    }
  });

  it('collapses only the sidebar up to a 1440 px laptop, and opens everything on a wider window (1536 px laptops, 1920)', () => {
    expect(layoutDefaults(1440)).toMatchObject({ sidebarOpen: false, paletteOpen: true, panelOpen: true, paletteWidth: 224, panelWidth: 320 });
    expect(canvasShare(1440)).toBeGreaterThanOrEqual(0.55);
    expect(layoutDefaults(1441)).toMatchObject({ sidebarOpen: true });
    expect(layoutDefaults(1536)).toEqual({ sidebarOpen: true, paletteOpen: true, panelOpen: true, paletteWidth: 224, panelWidth: 320 });
    expect(layoutDefaults(1920)).toEqual({ sidebarOpen: true, paletteOpen: true, panelOpen: true, paletteWidth: 224, panelWidth: 320 });
  });

  it('starts the sidebar open at any width when no workflow is open, and leaves the rest as in the editor', () => {
    for (const width of [800, 1280, 1366, 1440, 1920]) {
      expect(layoutDefaults(width, 'home')).toEqual({ ...layoutDefaults(width, 'editor'), sidebarOpen: true });
      expect(effectiveLayout({}, width, { screen: 'home' }).sidebarOpen).toBe(true);
    }
    // A sidebar the user collapsed stays collapsed there too.
    expect(effectiveLayout({ sidebarOpen: false }, 1920, { screen: 'home' }).sidebarOpen).toBe(false);
  });

  it('lets the user’s choices win over the defaults, field by field', () => {
    expect(effectiveLayout({ sidebarOpen: true }, 1280)).toMatchObject({ sidebarOpen: true, paletteOpen: true, panelOpen: true, panelWidth: 280 });
    expect(effectiveLayout({ paletteOpen: false, panelOpen: false, panelWidth: 400 }, 1920)).toMatchObject({ sidebarOpen: true, paletteOpen: false, panelOpen: false, panelWidth: 400 });
  });

  it('shows the side panel for now over a closed choice, without changing the choice', () => {
    const choices = { panelOpen: false, panelWidth: 400 };
    expect(effectiveLayout(choices, 1280).panelOpen).toBe(false);
    expect(effectiveLayout(choices, 1280, { panelShown: true })).toMatchObject({ panelOpen: true, panelWidth: 400 });
    expect(effectiveLayout(choices, 1280, { panelShown: false }).panelOpen).toBe(false);
    expect(choices).toEqual({ panelOpen: false, panelWidth: 400 });
  });

  it('keeps the sidebar open for now in the editor, over its default', () => {
    expect(effectiveLayout({}, 1280).sidebarOpen).toBe(false);
    expect(effectiveLayout({}, 1280, { sidebarShown: true }).sidebarOpen).toBe(true);
    expect(effectiveLayout({ sidebarOpen: true }, 1280, { sidebarShown: false }).sidebarOpen).toBe(true);
  });

  it('holds the side panel between its minimum and half the window (and never past its maximum)', () => {
    expect(clampPanelWidth(100, 1280)).toBe(PANEL_MIN_WIDTH);
    expect(clampPanelWidth(900, 1280)).toBe(640);
    expect(clampPanelWidth(2000, 3000)).toBe(PANEL_MAX_WIDTH);
    expect(clampPanelWidth(400.4, 1280)).toBe(400);
    // A width chosen on a wide screen is held within a narrower window's limits.
    expect(effectiveLayout({ panelWidth: 700 }, 1000).panelWidth).toBe(500);
    expect(clampPanelWidth(300, 400)).toBe(PANEL_MIN_WIDTH);
  });

  it('tells layouts that draw the same apart from those that do not', () => {
    expect(sameLayout(layoutDefaults(1280), layoutDefaults(1300))).toBe(true);
    expect(sameLayout(layoutDefaults(1280), layoutDefaults(1920))).toBe(false);
  });
});

describe('the stored choices', () => {
  it('reads what was stored', () => {
    expect(parseChoices(JSON.stringify({ sidebarOpen: true, paletteOpen: false, panelOpen: true, panelWidth: 412.6 }))).toEqual({ sidebarOpen: true, paletteOpen: false, panelOpen: true, panelWidth: 413 });
  });

  it('leaves out what it cannot read, never throwing', () => {
    expect(parseChoices(null)).toEqual({});
    expect(parseChoices('')).toEqual({});
    expect(parseChoices('{not json')).toEqual({});
    expect(parseChoices('42')).toEqual({});
    expect(parseChoices('null')).toEqual({});
    expect(parseChoices(JSON.stringify({ sidebarOpen: 'yes', panelWidth: -5, paletteOpen: true, other: 1 }))).toEqual({ paletteOpen: true });
    expect(parseChoices(JSON.stringify({ panelWidth: 'wide' }))).toEqual({});
  });
});
