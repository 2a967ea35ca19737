import { useRef, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import { clampPanelWidth, panelWidthLimits } from './layout';
import { chooseLayout } from './useLayout';

/** How far an arrow key moves the panel's edge, px. */
const KEY_STEP = 16;

/**
 * The side panel's left edge: drag it (pointer events) or press ←/→ on it to make the panel wider or
 * narrower, or double-click it for the default width. While dragging, the panel's width is set on its element directly (no render of the editor
 * per pointer move); the width is chosen, and kept for this browser, when the drag ends.
 */
export function PanelResizer({ width, panel }: { width: number; panel: RefObject<HTMLElement | null> }) {
  const drag = useRef<{ pointerId: number; startX: number; startWidth: number; width: number } | null>(null);
  const { min, max } = panelWidthLimits(window.innerWidth);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    const startWidth = panel.current?.getBoundingClientRect().width ?? width;
    drag.current = { pointerId: e.pointerId, startX: e.clientX, startWidth, width: startWidth };
    document.body.classList.add('resizing-panel');
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId) return;
    // The panel is on the right: moving its edge left makes it wider.
    d.width = clampPanelWidth(d.startWidth + d.startX - e.clientX, window.innerWidth);
    if (panel.current) panel.current.style.width = `${d.width}px`;
  };
  const end = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId) return;
    drag.current = null;
    document.body.classList.remove('resizing-panel');
    if (Math.round(d.width) !== Math.round(d.startWidth)) chooseLayout({ panelWidth: d.width });
  };
  // A double click gives the panel back its default width for the window (the choice is forgotten).
  const onDoubleClick = () => chooseLayout({ panelWidth: undefined });
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const by = e.key === 'ArrowLeft' ? KEY_STEP : e.key === 'ArrowRight' ? -KEY_STEP : 0;
    if (by === 0) return;
    e.preventDefault();
    chooseLayout({ panelWidth: clampPanelWidth(width + by, window.innerWidth) });
  };

  return (
    <div
      className="panel-resizer"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize side panel"
      aria-valuenow={width}
      aria-valuemin={min}
      aria-valuemax={max}
      title="Drag to resize the side panel; double-click for its default width"
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={end}
      onPointerCancel={end}
      onKeyDown={onKeyDown}
      onDoubleClick={onDoubleClick}
    />
  );
}
