import type { ReactNode } from 'react';

/** A window with a bar on the side of the part the button opens or closes (the sidebar and palette left, the side panel right). */
const FRAME = 'M3 4h18v16H3z';
const BAR = { left: 'M9 4v16', right: 'M15 4v16' } as const;

/** The button that opens or closes one part of the layout: its label says which, its title the shortcut. */
export function PaneToggle({ label, side, expanded, shortcut, onClick }: { label: string; side: 'left' | 'right'; expanded: boolean; shortcut?: string; onClick(): void }) {
  return (
    <button type="button" className="icon-btn pane-toggle" aria-label={label} aria-expanded={expanded} title={shortcut ? `${label} (${shortcut})` : label} onClick={onClick}>
      <svg width={16} height={16} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
        <path d={`${FRAME}${BAR[side]}`} />
      </svg>
    </button>
  );
}

/** A collapsed sidebar or palette: a thin rail with the button that opens it again (and `children`, the part's most used actions). */
export function Rail({ part, toggleLabel, shortcut, onOpen, children }: { part: string; toggleLabel: string; shortcut?: string; onOpen(): void; children?: ReactNode }) {
  return (
    <div className="rail" data-rail={part}>
      <PaneToggle label={toggleLabel} side="left" expanded={false} shortcut={shortcut} onClick={onOpen} />
      {children}
    </div>
  );
}
