import { useId, useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import { Icon } from '../ui/icons';

/** The tallest the message box grows (px) before it scrolls. */
const MAX_HEIGHT = 160;

/** What a key press in the message box does: Enter sends, Shift+Enter (or Enter while an input method composes) is a new line. */
export function composerKey(e: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'nativeEvent'>): 'send' | 'type' {
  return e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing ? 'send' : 'type';
}

/**
 * The copilot's message box: grows with its text up to MAX_HEIGHT, Enter sends and Shift+Enter starts
 * a new line; Send is disabled while there is nothing to send. While a reply is coming Send becomes
 * Stop, which stops the turn (the box stays editable, so the next message can be written meanwhile,
 * but Enter does not send it yet).
 */
export function Composer({
  draft,
  busy,
  stopping,
  propose,
  onDraft,
  onPropose,
  onSend,
  onStop,
}: {
  draft: string;
  busy: boolean;
  /** A stop was asked for and the reply has not ended yet. */
  stopping: boolean;
  propose: boolean;
  onDraft(text: string): void;
  onPropose(on: boolean): void;
  onSend(): void;
  onStop(): void;
}) {
  const box = useRef<HTMLTextAreaElement>(null);
  const keysId = useId();
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight + 2, MAX_HEIGHT)}px`;
    el.style.overflowY = el.scrollHeight + 2 > MAX_HEIGHT ? 'auto' : 'hidden';
  }, [draft]);
  const empty = draft.trim() === '';
  return (
    <form
      className="copilot-composer"
      onSubmit={(e) => {
        e.preventDefault();
        onSend();
      }}
    >
      <div className="composer-box">
        <textarea
          ref={box}
          className="composer-input"
          aria-label="Ask the copilot"
          aria-describedby={keysId}
          value={draft}
          rows={1}
          placeholder="Ask for a change…"
          onChange={(e) => onDraft(e.target.value)}
          onKeyDown={(e) => {
            if (composerKey(e) !== 'send') return;
            e.preventDefault();
            if (!busy && !empty) onSend();
          }}
        />
        {busy ? (
          <button type="button" className="composer-send composer-stop" aria-label="Stop" title="Stop" disabled={stopping} onClick={onStop}>
            {stopping ? <span className="composer-spinner" aria-hidden="true" /> : <Icon name="stop" size={13} />}
          </button>
        ) : (
          <button type="submit" className="composer-send" aria-label="Send" title="Send (Enter)" disabled={empty}>
            <Icon name="send" size={15} />
          </button>
        )}
      </div>
      <div className="composer-foot">
        <label className="toggle">
          <input type="checkbox" className="toggle-input" checked={propose} onChange={(e) => onPropose(e.target.checked)} /> Show edits as a diff first
        </label>
        <span id={keysId} className="composer-keys">
          <kbd>Enter</kbd> send · <kbd>Shift</kbd>+<kbd>Enter</kbd> new line
        </span>
      </div>
    </form>
  );
}
