import { memo, useMemo, useState } from 'react';
import type { BlockDefinition } from '../api';
import { CANVAS_KEYS } from '../shell/keys';
import { PaneToggle, Rail } from '../shell/PaneToggle';
import { BlockIcon, Icon } from '../ui/icons';

export const BLOCK_DRAG_TYPE = 'application/x-weft-block';

export interface PaletteItem {
  type: string;
  name: string;
  description: string;
  category: 'blocks' | 'tools' | 'triggers';
  color: string;
  icon: string;
}

/** Loop and parallel have no catalogue definition (spec 000 §4); the palette offers them with the blocks. */
const CONTAINERS: PaletteItem[] = [
  { type: 'loop', name: 'Loop', description: 'Repeat the blocks inside it a number of times or for each item', category: 'blocks', color: '#2FB3FF', icon: 'LoopIcon' },
  { type: 'parallel', name: 'Parallel', description: 'Run the blocks inside it side by side, per item or a count of times', category: 'blocks', color: '#FEE12B', icon: 'ParallelIcon' },
];

/** Every block the palette offers: the catalogue's, minus the starter and those it hides (thinking), plus the containers. */
export function paletteItems(definitions: readonly BlockDefinition[]): PaletteItem[] {
  const fromCatalogue = definitions
    .filter((b) => b.type !== 'starter' && !b.hideFromToolbar)
    .map((b) => ({ type: b.type, name: b.name, description: b.description, category: b.category, color: b.bgColor, icon: b.icon }));
  return [...CONTAINERS, ...fromCatalogue];
}

/** Items matching a search, by name, type or description. */
export function searchItems(items: readonly PaletteItem[], query: string): PaletteItem[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...items];
  return items.filter((i) => i.name.toLowerCase().includes(q) || i.type.toLowerCase().includes(q) || i.description.toLowerCase().includes(q));
}

const SECTIONS = [
  { id: 'blocks', title: 'Blocks' },
  { id: 'tools', title: 'Tools' },
  { id: 'triggers', title: 'Triggers' },
] as const;

/** The shortcut that opens and collapses the block palette. */
export const PALETTE_SHORTCUT = 'Ctrl+B';
/** Below this width the palette shows its blocks' names only (their descriptions stay in the tooltip). */
const NARROW_PALETTE = 200;

interface PaletteProps {
  definitions: readonly BlockDefinition[];
  onAdd(type: string): void;
  disabled?: boolean;
  /** Open, or collapsed to a rail; collapsed, it stays mounted, so its search and category are kept. */
  open: boolean;
  width: number;
  onToggle(): void;
}

/** The block palette: search, sections by category; drag an item onto the canvas, or click it to add it at the view's centre. */
export const Palette = memo(function Palette({ definitions, onAdd, disabled, open, width, onToggle }: PaletteProps) {
  const [query, setQuery] = useState('');
  const [section, setSection] = useState<PaletteItem['category'] | 'all'>('all');
  const items = useMemo(() => paletteItems(definitions), [definitions]);
  const found = searchItems(items, query).filter((i) => section === 'all' || i.category === section);
  return (
    <>
      {!open && <Rail part="palette" toggleLabel="Show block palette" shortcut={PALETTE_SHORTCUT} onOpen={onToggle} />}
      <aside className={`palette${width < NARROW_PALETTE ? ' narrow' : ''}`} aria-label="Block palette" {...CANVAS_KEYS} hidden={!open} style={{ width }}>
        <div className="palette-head">
          <div className="palette-search">
            <Icon name="search" size={14} />
            <input type="search" placeholder={width < NARROW_PALETTE ? 'Search' : 'Search blocks'} aria-label="Search blocks" value={query} onChange={(e) => setQuery(e.target.value)} />
          </div>
          <PaneToggle label="Hide block palette" side="left" expanded shortcut={PALETTE_SHORTCUT} onClick={onToggle} />
        </div>
        <div className="segmented" role="tablist" aria-label="Block categories">
          {(['all', 'blocks', 'tools', 'triggers'] as const).map((s) => (
            <button key={s} type="button" role="tab" aria-selected={section === s} className={section === s ? 'on' : ''} onClick={() => setSection(s)}>
              {s === 'all' ? 'All' : s[0]?.toUpperCase() + s.slice(1)}
            </button>
          ))}
        </div>
        <div className="palette-list">
          {SECTIONS.map(({ id, title }) => {
            const inSection = found.filter((i) => i.category === id);
            if (inSection.length === 0) return null;
            return (
              <section key={id} aria-label={title}>
                <h3>{title}</h3>
                {inSection.map((item) => (
                  <button
                    key={item.type}
                    type="button"
                    className="palette-item"
                    aria-label={`Add ${item.name}`}
                    title={item.description}
                    disabled={disabled}
                    draggable={!disabled}
                    data-block-type={item.type}
                    onDragStart={(e) => {
                      e.dataTransfer.setData(BLOCK_DRAG_TYPE, item.type);
                      e.dataTransfer.effectAllowed = 'copy';
                    }}
                    onClick={() => onAdd(item.type)}
                  >
                    <BlockIcon icon={item.icon} color={item.color} name={item.name} size={26} />
                    <span className="palette-text">
                      <span className="palette-name">{item.name}</span>
                      <span className="palette-desc">{item.description}</span>
                    </span>
                  </button>
                ))}
              </section>
            );
          })}
          {found.length === 0 && <p className="muted pad">No block matches “{query}”.</p>}
        </div>
      </aside>
    </>
  );
});
