import { describe, expect, it } from 'vitest';
import { fit, foldsMiniMap, pictureOf, samePicture, type Scene } from './MiniMap';

const scene = (x: number): Scene => ({
  boxes: [
    { x, y: 0, width: 240, height: 60, color: '#f00' },
    { x: 12_000, y: 8_000, width: 240, height: 60, color: 'transparent' },
  ],
  view: { x: 0, y: 0, width: 1_440, height: 900 },
});

describe('minimap picture', () => {
  it('puts every box and the view in whole device pixels, at least one pixel each', () => {
    const s = scene(0);
    const picture = pictureOf(s, fit(s), 2);
    expect(picture.colors).toEqual(['#f00', 'transparent']);
    expect(picture.rects).toHaveLength(12);
    expect([...picture.rects].every(Number.isInteger)).toBe(true);
    expect(Math.min(...picture.rects.filter((_v, i) => i % 4 >= 2))).toBeGreaterThanOrEqual(1);
    // The boxes fit inside the 160 × 110 minimap (320 × 220 device pixels).
    for (let i = 0; i < 3; i++) {
      expect(picture.rects[i * 4] ?? -1).toBeGreaterThanOrEqual(0);
      expect((picture.rects[i * 4] ?? 0) + (picture.rects[i * 4 + 2] ?? 0)).toBeLessThanOrEqual(320);
      expect((picture.rects[i * 4 + 1] ?? 0) + (picture.rects[i * 4 + 3] ?? 0)).toBeLessThanOrEqual(220);
    }
  });

  it('is the same when a block moves less than a minimap pixel, and differs when it moves more', () => {
    const at = fit(scene(0));
    const before = pictureOf(scene(0), at, 1);
    expect(samePicture(undefined, before)).toBe(false);
    expect(samePicture(before, pictureOf(scene(1), at, 1))).toBe(true);
    expect(samePicture(before, pictureOf(scene(3_000), at, 1))).toBe(false);
    const recoloured = pictureOf({ ...scene(0), boxes: scene(0).boxes.map((b, i) => (i === 0 ? { ...b, color: '#0f0' } : b)) }, at, 1);
    expect(samePicture(before, recoloured)).toBe(false);
  });
});

describe('the minimap folding on a short canvas', () => {
  it('folds with the run console open on a 1440×900 screen (a canvas about 590 px tall), where it covered blocks', () => {
    expect(foldsMiniMap(590)).toBe(true);
    expect(foldsMiniMap(400)).toBe(true);
  });

  it('stays open on a canvas with the console closed, a laptop’s 768 px screen’s too, and before the canvas is measured', () => {
    expect(foldsMiniMap(700)).toBe(false);
    expect(foldsMiniMap(840)).toBe(false);
    expect(foldsMiniMap(0)).toBe(false);
  });
});
