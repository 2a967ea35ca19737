import { BRAND_GLYPHS, BRAND_MARKS } from './brandIcons';

/** Line icons (24×24, stroke) for the app's chrome and the catalogue's generic blocks; integrations' marks are in brandIcons.ts. */
const PATHS: Record<string, string> = {
  plus: 'M12 5v14M5 12h14',
  search: 'M11 19a8 8 0 1 1 0-16 8 8 0 0 1 0 16zM21 21l-4.3-4.3',
  folder: 'M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z',
  folderPlus: 'M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2zM12 11v5M9.5 13.5h5',
  dots: 'M5 12h.01M12 12h.01M19 12h.01',
  undo: 'M9 14 4 9l5-5M4 9h11a5 5 0 0 1 0 10h-3',
  redo: 'm15 14 5-5-5-5M20 9H9a5 5 0 0 0 0 10h3',
  trash: 'M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6',
  copy: 'M9 9h11v11H9zM5 15H4V4h11v1',
  // A clipboard with an arrow into it (Paste), and a copy with a plus (Duplicate): not Download's tray, not Add's plus.
  paste: 'M15 4h3a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2h3M9 2h6v4H9zM12 10v8M8.5 14.5 12 18l3.5-3.5',
  duplicate: 'M9 9h11v11H9zM5 15H4V4h11v1M14.5 12v5M12 14.5h5',
  layout: 'M3 3h7v7H3zM14 3h7v7h-7zM14 14h7v7h-7zM3 14h7v7H3z',
  // An eraser (Clear workflow): not Delete's bin.
  eraser: 'm7 21-4.3-4.3a1 1 0 0 1 0-1.4l9.6-9.6a1 1 0 0 1 1.4 0l5.6 5.6a1 1 0 0 1 0 1.4L13 21M22 21H7M5 11l9 9',
  fit: 'M3 8V3h5M16 3h5v5M21 16v5h-5M8 21H3v-5',
  settings: 'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z',
  logout: 'M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9',
  chevron: 'm9 18 6-6-6-6',
  chevronDown: 'm6 9 6 6 6-6',
  chevronUp: 'm18 15-6-6-6 6',
  stop: 'M6 6h12v12H6z',
  rocket: 'M5 15c-1.5 1.3-2 5-2 5s3.7-.5 5-2c.7-.8.7-2.1-.1-2.9A2.2 2.2 0 0 0 5 15zM12 15l-3-3a22 22 0 0 1 2-3.9A12.9 12.9 0 0 1 22 2c0 2.7-.8 7.5-6 11a22.4 22.4 0 0 1-4 2zM9 12H4s.6-3 2-4c1.6-1.1 5 0 5 0M12 15v5s3-.6 4-2c1.1-1.6 0-5 0-5',
  terminal: 'm4 17 6-6-6-6M12 19h8',
  x: 'M18 6 6 18M6 6l12 12',
  check: 'M20 6 9 17l-5-5',
  hash: 'M4 9h16M4 15h16M10 3 8 21M16 3l-2 18',
  eye: 'M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12zM12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
  eyeOff: 'M9.9 4.2A10 10 0 0 1 12 4c6.5 0 10 8 10 8a17 17 0 0 1-2.2 3.2M6.6 6.6A17 17 0 0 0 2 12s3.5 8 10 8a9.7 9.7 0 0 0 5.4-1.6M2 2l20 20M9.9 9.9a3 3 0 0 0 4.2 4.2',
  key: 'M21 2l-2 2m-7.6 7.6a5.5 5.5 0 1 1-7.8 7.8 5.5 5.5 0 0 1 7.8-7.8zm0 0L15.5 7.5m0 0 3 3L22 7l-3-3m-3.5 3.5L19 4',
  users: 'M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM22 21v-2a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8',
  link: 'M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7',
  wrench: 'M14.7 6.3a1 1 0 0 0 0 1.4l1.6 1.6a1 1 0 0 0 1.4 0l3.8-3.8a6 6 0 0 1-7.9 7.9l-6.9 6.9a2.1 2.1 0 0 1-3-3l6.9-6.9a6 6 0 0 1 7.9-7.9z',
  upload: 'M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4M17 8l-5-5-5 5M12 3v12',
  map: 'M9 4 3 6v14l6-2 6 2 6-2V4l-6 2zM9 4v14M15 6v14',
  download: 'M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4M7 10l5 5 5-5M12 15V3',
  play: 'm6 3 14 9-14 9z',
  send: 'M22 2 11 13M22 2l-7 20-4-9-9-4z',
  sparkle: 'M12 3l1.8 5.2L19 10l-5.2 1.8L12 17l-1.8-5.2L5 10l5.2-1.8zM19 15l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8z',
  // Generic blocks of the catalogue.
  StartIcon: 'm6 3 14 9-14 9z',
  AgentIcon: 'M12 8V4H8M4 8h16v12H4zM2 14h2M20 14h2M9 13v2M15 13v2',
  ApiIcon: 'M4 12h16M12 4a13 13 0 0 1 0 16 13 13 0 0 1 0-16zM12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20z',
  ConditionalIcon: 'M6 3v12M18 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM6 21a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM18 9a9 9 0 0 1-9 9',
  CodeIcon: 'm16 18 6-6-6-6M8 6l-6 6 6 6',
  ConnectIcon: 'M16 3h5v5M4 20 21 3M21 16v5h-5M15 15l6 6M4 4l5 5',
  ResponseIcon: 'M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z',
  WorkflowIcon: 'M3 3h6v6H3zM15 15h6v6h-6zM6 9v3a3 3 0 0 0 3 3h6',
  BrainIcon: 'M12 5a3 3 0 1 0-6 0 3 3 0 0 0-2 5 3 3 0 0 0 2 5 3 3 0 1 0 6 0zM12 5a3 3 0 1 1 6 0 3 3 0 0 1 2 5 3 3 0 0 1-2 5 3 3 0 1 1-6 0zM12 5v14',
  PackageSearchIcon: 'M21 10V8a2 2 0 0 0-1-1.7l-7-4a2 2 0 0 0-2 0l-7 4A2 2 0 0 0 3 8v8a2 2 0 0 0 1 1.7l7 4M16.5 20a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5zM20.3 21.3 18.4 19.4',
  ScheduleIcon: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20zM12 6v6l4 2',
  WebhookIcon: 'M18 17h-6c-1.1 0-2 .9-2.5 1.9A4 4 0 1 1 3.6 15M6 17l3.1-5.8c.5-1 .1-2.2-.5-3.1a4 4 0 1 1 6.9-4.1M12 6l3.1 5.7c.5 1 1.8 1.3 2.9 1.3a4 4 0 0 1 0 8',
  MailIcon: 'M4 4h16v16H4zM22 6l-10 7L2 6',
  DocumentIcon: 'M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8zM14 2v6h6M8 13h8M8 17h8',
  ImageIcon: 'M3 3h18v18H3zM8.5 10a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3zM21 15l-5-5L5 21',
  EyeIcon: 'M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12zM12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
  ChartBarIcon: 'M3 3v18h18M8 17v-5M13 17V8M18 17v-9',
  TranslateIcon: 'm5 8 6 6M4 14l6-6 2-3M2 5h12M7 2h1M22 22l-5-10-5 10M14 18h6',
  LoopIcon: 'M17 2l4 4-4 4M3 11v-1a4 4 0 0 1 4-4h14M7 22l-4-4 4-4M21 13v1a4 4 0 0 1-4 4H3',
  ParallelIcon: 'M5 3v17M12 3v17M19 3v17M2 17l3 3 3-3M9 17l3 3 3-3M16 17l3 3 3-3',
};

export type IconName = keyof typeof PATHS | string;

/** Whether a block badge can show `name` as a glyph: a line icon, a brand mark or a drawn brand glyph. */
export function hasIcon(name: string): boolean {
  return name in PATHS || name in BRAND_MARKS || name in BRAND_GLYPHS;
}

export function Icon({ name, size = 16, className }: { name: IconName; size?: number; className?: string }) {
  const d = PATHS[name] ?? BRAND_GLYPHS[name]?.d ?? PATHS.dots;
  return (
    <svg className={className} width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d={d} />
    </svg>
  );
}

const SLATE = '#1f2937';

function luminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1, 7), 16);
  const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(((n >> 16) & 255) / 255) + 0.7152 * lin(((n >> 8) & 255) / 255) + 0.0722 * lin((n & 255) / 255);
}

/** WCAG contrast ratio of two #rrggbb colours. */
export function contrast(a: string, b: string): number {
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

function darken(hex: string, by: number): string {
  const n = Number.parseInt(hex.slice(1, 7), 16);
  const ch = (shift: number) => Math.round(((n >> shift) & 255) * (1 - by));
  return `#${((ch(16) << 16) | (ch(8) << 8) | ch(0)).toString(16).padStart(6, '0')}`;
}

/**
 * The glyph's colour on a badge: white on a dark badge; on a light one (the catalogue's #E0E0E0
 * integrations, yellow containers) the brand's colour darkened until it stands out (3:1, WCAG's
 * figure for graphics), else slate.
 */
export function glyphColor(background: string, brandHex: string | undefined): string {
  if (contrast(background, '#ffffff') >= 3) return '#ffffff';
  if (!brandHex) return SLATE;
  for (let by = 0; by < 0.6; by += 0.1) {
    const c = darken(brandHex, by);
    if (contrast(background, c) >= 3) return c;
  }
  return SLATE;
}

function Glyph({ icon }: { icon: string }) {
  const mark = BRAND_MARKS[icon];
  if (mark) {
    // simple-icons marks fill the whole 24×24 box; the line icons keep a 2-unit margin.
    return (
      <svg viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" style={{ width: '52%', height: '52%' }}>
        <path d={mark.path} />
      </svg>
    );
  }
  return <Icon name={icon} />;
}

/** A block's badge: its catalogue colour with its icon or brand mark; initials only for an icon name the set lacks. */
export function BlockIcon({ icon, color, name, size = 28 }: { icon: string; color: string | undefined; name: string; size?: number }) {
  const background = color ?? '#6b7280';
  const initials = name
    .split(/[\s_-]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join('');
  const brandHex = BRAND_MARKS[icon]?.hex ?? BRAND_GLYPHS[icon]?.hex;
  return (
    <span className="block-icon" style={{ background, color: /^#[0-9a-f]{6}$/i.test(background) ? glyphColor(background, brandHex) : '#ffffff', width: size, height: size, fontSize: size * 0.4 }}>
      {hasIcon(icon) ? <Glyph icon={icon} /> : initials}
    </span>
  );
}
