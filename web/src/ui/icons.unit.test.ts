import { listBlocks } from '@weft/catalog';
import { describe, expect, it } from 'vitest';
import { BRAND_GLYPHS, BRAND_MARKS } from './brandIcons';
import { contrast, glyphColor, hasIcon } from './icons';

const containers = [
  { type: 'loop', icon: 'LoopIcon', bgColor: '#2FB3FF' },
  { type: 'parallel', icon: 'ParallelIcon', bgColor: '#FEE12B' },
];
const blocks = [...listBlocks().map((b) => ({ type: b.type, icon: b.icon, bgColor: b.bgColor })), ...containers];

describe('block icons', () => {
  it('every catalogue block (triggers and tools too) and container has a glyph, not initials', () => {
    expect(blocks.length).toBeGreaterThan(60);
    const missing = blocks.filter((b) => !hasIcon(b.icon)).map((b) => `${b.type} (${b.icon})`);
    expect(missing).toEqual([]);
  });

  it('every glyph stands out from its block colour (3:1)', () => {
    const faint = blocks
      .map((b) => ({ type: b.type, ratio: contrast(b.bgColor, glyphColor(b.bgColor, BRAND_MARKS[b.icon]?.hex ?? BRAND_GLYPHS[b.icon]?.hex)) }))
      .filter((b) => b.ratio < 3);
    expect(faint).toEqual([]);
  });

  it('keeps a brand colour on light badges, darkened when too pale, and white on dark ones', () => {
    expect(glyphColor('#E0E0E0', '#0052CC')).toBe('#0052cc');
    const google = glyphColor('#E0E0E0', '#4285F4');
    expect(google).not.toBe('#4285f4');
    expect(contrast('#E0E0E0', google)).toBeGreaterThanOrEqual(3);
    expect(glyphColor('#E0E0E0', undefined)).toBe('#1f2937');
    expect(glyphColor('#611f69', '#4A154B')).toBe('#ffffff');
  });

  it('an unknown icon name has no glyph (the badge falls back to initials)', () => {
    expect(hasIcon('NoSuchBrandIcon')).toBe(false);
  });

  it('brand marks are single 24×24 paths with a colour', () => {
    for (const [name, m] of Object.entries(BRAND_MARKS)) {
      expect(m.path, name).toMatch(/^[Mm][\d.\s,a-zA-Z-]+$/);
      expect(m.hex, name).toMatch(/^#[0-9A-F]{6}$/i);
    }
  });
});
