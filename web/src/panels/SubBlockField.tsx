import { useId, type KeyboardEvent } from 'react';
import type { SubBlockConfig } from '@weft/catalog';
import { fieldKind, fieldText, parseField, sameValue, type FieldKind } from './blockForm';
import { useDraft } from './useDraft';

interface FieldProps {
  field: SubBlockConfig;
  value: unknown;
  /** Sends a new value for the field. */
  onChange(value: unknown): void;
}

/** The field's name as its label shows it. */
const title = (field: SubBlockConfig) => field.title ?? field.id;

/** A field edited as text (inputs, text areas, numbers, JSON): sent on leaving it or Enter, checked first. */
function TextField({ field, kind, value, onChange }: FieldProps & { kind: FieldKind }) {
  const id = useId();
  const send = (text: string) => {
    const parsed = parseField(field, kind, text);
    if (!parsed.ok) return false;
    if (!sameValue(parsed.value, value)) onChange(parsed.value);
    return true;
  };
  const { draft, dirty, change, onFocus, onBlur, commit } = useDraft(fieldText(kind, value), send);
  const parsed = dirty ? parseField(field, kind, draft) : undefined;
  const error = parsed && !parsed.ok ? parsed.error : undefined;
  const errorId = `${id}-error`;
  // Enter sends; Shift+Enter starts a new line in the multi-line fields.
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Enter' || e.shiftKey) return;
    e.preventDefault();
    commit();
  };
  const common = {
    id,
    value: draft,
    placeholder: field.placeholder,
    'aria-invalid': error !== undefined,
    'aria-describedby': error && errorId,
    onFocus,
    onBlur,
    onKeyDown,
  };
  const multiLine = kind === 'textarea' || kind === 'json';
  const listId = `${id}-options`;
  return (
    <div className={`field field-${kind}`}>
      <label htmlFor={id}>{title(field)}</label>
      {multiLine ? (
        <textarea {...common} rows={field.rows ?? (kind === 'json' ? 4 : 3)} spellCheck={false} onChange={(e) => change(e.target.value)} />
      ) : (
        <input
          {...common}
          type={kind === 'number' ? 'number' : field.password === true ? 'password' : 'text'}
          min={field.min}
          max={field.max}
          step={field.step ?? (kind === 'number' ? 'any' : undefined)}
          list={kind === 'combobox' ? listId : undefined}
          autoComplete="off"
          onChange={(e) => change(e.target.value)}
        />
      )}
      {kind === 'combobox' && (
        <datalist id={listId}>
          {field.options?.map((o) => (
            <option key={o.id} value={o.id}>
              {o.label}
            </option>
          ))}
        </datalist>
      )}
      {error && (
        <span className="error" id={errorId} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

/** A dropdown: the field's options, plus the current value when it is none of them; sent on choosing. */
function SelectField({ field, value, onChange }: FieldProps) {
  const id = useId();
  const current = fieldText('select', value);
  const options = field.options ?? [];
  const known = options.some((o) => o.id === current);
  return (
    <div className="field field-select">
      <label htmlFor={id}>{title(field)}</label>
      <select id={id} value={current} onChange={(e) => onChange(e.target.value)}>
        {!known && <option value={current}>{current === '' ? 'Choose…' : current}</option>}
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A switch: a checkbox sent on each click. */
function SwitchField({ field, value, onChange }: FieldProps) {
  return (
    <label className="field field-switch">
      <input type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
      {title(field)}
    </label>
  );
}

/** One field of a block form, drawn by its sub-block type. */
export function SubBlockField(props: FieldProps) {
  const kind = fieldKind(props.field.type);
  if (kind === 'select') return <SelectField {...props} />;
  if (kind === 'switch') return <SwitchField {...props} />;
  return <TextField {...props} kind={kind} />;
}
