import type { ReactNode } from 'react';

/**
 * The ▾ button of a combobox. It opens the list and focuses the input, so Escape
 * and a click elsewhere close the list again; it never takes the focus itself. Pressed while open, it closes.
 */
export function ComboToggle({ label, open, input, show, close, children }: { label: string; open: boolean; input: { current: HTMLInputElement | null }; show(): void; close(): void; children: ReactNode }) {
  return (
    <button
      type="button"
      className="combo-toggle"
      tabIndex={-1}
      aria-label={`Show ${label} choices`}
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => {
        if (open) close();
        else {
          input.current?.focus();
          // Focused already (the list closed by Escape), the focus alone would not open it again.
          show();
        }
      }}
    >
      {children}
    </button>
  );
}
