import { useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { SubBlockConfig } from '@weft/catalog';
import { insertAt, matchingChoices, openTrigger, referenceOptions, tokenize } from '../references';
import { useDraft } from '../useDraft';
import { Icon } from '../../ui/icons';
import { useFormEnv } from './FormContext';

interface Props {
  field: SubBlockConfig;
  label: string;
  value: string;
  multiLine: boolean;
  /** Sends the text; answers whether it was taken. */
  send(text: string): boolean;
  error?: string;
  describedBy?: string;
  /** The label for assistive technology only (a row or a cell that shows its name another way). */
  labelHidden?: boolean;
}

/**
 * A short or long text field in which `<` offers upstream outputs and `{{` environment variables,
 * with references highlighted; secret fields are masked until shown. Sent on leaving or Enter.
 */
export function RefText({ field, label, value, multiLine, send, error, describedBy, labelHidden }: Props) {
  const id = useId();
  const env = useFormEnv();
  const input = useRef<HTMLTextAreaElement & HTMLInputElement>(null);
  const backdrop = useRef<HTMLDivElement>(null);
  const { draft, change, onFocus, onBlur, commit } = useDraft(value, send);
  const [trigger, setTrigger] = useState<ReturnType<typeof openTrigger>>(null);
  const [active, setActive] = useState(0);
  const [shown, setShown] = useState(false);
  const secret = field.password === true;
  const droppable = field.connectionDroppable !== false;

  const options = useMemo(() => {
    if (!trigger) return [];
    if (trigger.kind === 'env') return matchingChoices(env.envKeys.map((k) => ({ insert: `{{${k}}}`, group: 'Environment variables' })), trigger.query);
    return matchingChoices(referenceOptions(env.state, env.blockId), trigger.query);
  }, [trigger, env]);

  const look = (text: string, caret: number) => {
    const t = openTrigger(text, caret);
    const allowed = t && (t.kind === 'env' || droppable);
    setTrigger(allowed ? t : null);
    setActive(0);
  };
  // The caret after a chosen option, put in place as soon as the new text is in the field — before the
  // next key is handled (a caret set a frame later moved keys typed in between: ` and` after a chosen
  // reference landed as `and … `).
  const caretAfterChoice = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = input.current;
    const caret = caretAfterChoice.current;
    if (caret === null || !el) return;
    caretAfterChoice.current = null;
    if (document.activeElement !== el) el.focus();
    el.setSelectionRange(caret, caret);
  });
  const choose = (insert: string) => {
    const el = input.current;
    if (!trigger || !el) return;
    const caret = el.selectionStart ?? draft.length;
    const next = insertAt(draft, trigger.start, caret, insert);
    caretAfterChoice.current = next.caret;
    change(next.text);
    // Always a new render (the menu closes), so the effect above places the caret.
    setTrigger(null);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (trigger && options.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        choose(options[active]?.insert ?? '');
        return;
      }
    }
    if (e.key === 'Escape') setTrigger(null);
    if (e.key !== 'Enter' || e.shiftKey) return;
    e.preventDefault();
    commit();
  };
  const masked = secret && !shown;
  const common = {
    id,
    ref: input,
    value: draft,
    placeholder: field.placeholder,
    'aria-invalid': error !== undefined,
    'aria-describedby': describedBy,
    'aria-autocomplete': 'list' as const,
    spellCheck: false,
    className: `input ref-input${masked ? '' : ' overlay'}`,
    onFocus,
    onBlur: () => {
      // Let a click on the menu land first.
      window.setTimeout(() => setTrigger(null), 150);
      onBlur();
    },
    onKeyDown,
    onChange: (e: { target: { value: string; selectionStart: number | null } }) => {
      change(e.target.value);
      look(e.target.value, e.target.selectionStart ?? e.target.value.length);
    },
    onScroll: () => {
      if (!backdrop.current || !input.current) return;
      backdrop.current.scrollTop = input.current.scrollTop;
      backdrop.current.scrollLeft = input.current.scrollLeft;
    },
  };
  return (
    <div className={`field field-${multiLine ? 'textarea' : 'text'}`}>
      <label htmlFor={id} className={labelHidden ? 'sr-only' : undefined}>
        {label}
      </label>
      <div className="ref-wrap">
        {!masked && (
          <div className={`ref-backdrop${multiLine ? ' multi' : ''}`} ref={backdrop} aria-hidden="true">
            {tokenize(draft).map((part, i) => (
              <span key={i} className={part.kind === 'plain' ? undefined : `tok-${part.kind}`}>
                {part.text}
              </span>
            ))}
            {multiLine && '\n'}
          </div>
        )}
        {multiLine ? (
          <textarea {...common} rows={field.rows ?? 3} />
        ) : (
          <input {...common} type={masked ? 'password' : 'text'} autoComplete="off" />
        )}
        {secret && (
          <button type="button" className="icon-btn reveal" aria-label={shown ? `Hide ${label}` : `Show ${label}`} onClick={() => setShown((s) => !s)}>
            <Icon name={shown ? 'eyeOff' : 'eye'} size={14} />
          </button>
        )}
        {trigger && (
          <div className="tag-menu" role="listbox" aria-label={trigger.kind === 'env' ? 'Environment variables' : 'Block outputs'}>
            {options.length === 0 && <div className="tag-empty">{trigger.kind === 'env' ? 'No environment variable matches' : 'No upstream output matches'}</div>}
            {options.slice(0, 50).map((o, i) => (
              <button
                type="button"
                role="option"
                aria-selected={i === active}
                key={o.insert}
                className={`tag-option${i === active ? ' on' : ''}`}
                onMouseDown={(e) => {
                  e.preventDefault();
                  choose(o.insert);
                }}
              >
                <span className={trigger.kind === 'env' ? 'tok-env' : 'tok-ref'}>{o.insert}</span>
                <span className="tag-group">{o.group}</span>
              </button>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}
