/** The shortcut that opens and collapses the sidebar (as in Notion). */
export const SIDEBAR_SHORTCUT = 'Ctrl+\\';

/** Whether a key pressed in `target` is being typed into a text: an input, textarea, select, contenteditable or a CodeMirror editor. */
export function isTypingIn(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.closest('.cm-editor') !== null);
}

/**
 * Whether a key press is the sidebar's shortcut, Ctrl+\ (⌘+\): Alt is allowed, as on German and other
 * layouts the backslash is typed with AltGr, which the browser reports as Ctrl+Alt.
 */
export function isSidebarShortcut(e: Pick<KeyboardEvent, 'ctrlKey' | 'metaKey' | 'shiftKey' | 'key'>): boolean {
  return (e.ctrlKey || e.metaKey) && !e.shiftKey && e.key === '\\';
}
