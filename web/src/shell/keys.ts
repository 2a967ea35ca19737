/** The shortcut that opens and collapses the sidebar (as in Notion). */
export const SIDEBAR_SHORTCUT = 'Ctrl+\\';

/** Whether a key pressed in `target` is being typed into a text: an input, textarea, select, contenteditable or a CodeMirror editor. */
export function isTypingIn(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.closest('.cm-editor') !== null);
}

/** The attribute marking the parts of the page where Ctrl/⌘ shortcuts are the canvas's: the flow, its toolbar, the palette. */
const CANVAS_KEYS_ATTRIBUTE = 'data-canvas-keys';
/** The props marking an element as the canvas's for its shortcuts (spread onto it). */
export const CANVAS_KEYS = { [CANVAS_KEYS_ATTRIBUTE]: '' };

/**
 * Whether a Ctrl/⌘ key pressed at `target` is a canvas shortcut rather than the browser's: focus is on the canvas
 * (inside an element marked CANVAS_KEYS_ATTRIBUTE) or on nothing in particular (the body), nothing is being typed,
 * and no text is selected outside the canvas — so copy and select all in the run console, a panel or the copilot
 * stay native.
 */
export function isCanvasShortcutAt(target: EventTarget | null, selection: Selection | null): boolean {
  if (isTypingIn(target)) return false;
  const onCanvas = target instanceof Element && target.closest(`[${CANVAS_KEYS_ATTRIBUTE}]`) !== null;
  const nowhere = target === null || target === document.body || target === document.documentElement || target === document;
  if (!onCanvas && !nowhere) return false;
  return !selectsTextOutsideCanvas(selection);
}

/** Whether `selection` holds text (not a caret) outside the canvas. */
export function selectsTextOutsideCanvas(selection: Selection | null): boolean {
  if (!selection || selection.isCollapsed || selection.rangeCount === 0) return false;
  const at = selection.anchorNode;
  const element = at instanceof Element ? at : at?.parentElement;
  return !element?.closest(`[${CANVAS_KEYS_ATTRIBUTE}]`);
}

/**
 * Whether a key press is the sidebar's shortcut, Ctrl+\ (⌘+\): Alt is allowed, as on German and other
 * layouts the backslash is typed with AltGr, which the browser reports as Ctrl+Alt.
 */
export function isSidebarShortcut(e: Pick<KeyboardEvent, 'ctrlKey' | 'metaKey' | 'shiftKey' | 'key'>): boolean {
  return (e.ctrlKey || e.metaKey) && !e.shiftKey && e.key === '\\';
}
