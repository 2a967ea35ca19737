import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { SubBlockConfig } from '@weft/catalog';
import type { ProviderDefinition } from '../../api';
import { ComboToggle } from './ComboToggle';
import { parseSliderText, sliderBounds, sliderDecimals, stepSlider } from './slider';

interface Props {
  field: SubBlockConfig;
  label: string;
  value: unknown;
  onChange(value: unknown): void;
}

/** A dropdown: the field's options, plus the current value when it is none of them; sent on choosing. */
export function SelectField({ field, label, value, onChange, groups }: Props & { groups?: Array<{ label: string; options: Array<{ id: string; label: string }> }> }) {
  const id = useId();
  const current = value === null || value === undefined ? '' : String(value);
  const options = groups ? groups.flatMap((g) => g.options) : (field.options ?? []);
  const known = options.some((o) => o.id === current);
  return (
    <div className="field field-select">
      <label htmlFor={id}>{label}</label>
      <select id={id} className="input select" value={current} onChange={(e) => onChange(e.target.value)}>
        {!known && <option value={current}>{current === '' ? (field.placeholder ?? 'Choose…') : current}</option>}
        {groups
          ? groups.map((g) => (
              <optgroup key={g.label} label={g.label}>
                {g.options.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.label}
                  </option>
                ))}
              </optgroup>
            ))
          : options.map((o) => (
              <option key={o.id} value={o.id}>
                {o.label}
              </option>
            ))}
      </select>
    </div>
  );
}

/**
 * A slider with its range and step, and its value beside its name in a box that takes a typed number (put on the
 * slider: clamped to the range, on a step). The thumb's value is sent when it is let go, an arrow key's as
 * the key comes up, a typed one on Enter or on leaving the box; Escape in the box brings the value back.
 */
export function SliderField({ field, label, value, onChange }: Props) {
  const id = useId();
  const bounds = sliderBounds(field);
  const { min, max, step } = bounds;
  const stored = typeof value === 'number' ? value : typeof value === 'string' && value !== '' && Number.isFinite(Number(value)) ? Number(value) : typeof field.defaultValue === 'number' ? field.defaultValue : min;
  const [local, setLocal] = useState(stored);
  // What is being typed in the box, until it is taken (null: the box shows the slider's value).
  const [typing, setTyping] = useState<string | null>(null);
  const dragging = useRef(false);
  useEffect(() => {
    if (!dragging.current) setLocal(stored);
  }, [stored]);
  const send = (next = local) => {
    dragging.current = false;
    if (next !== stored) onChange(next);
  };
  const take = () => {
    if (typing === null) return send();
    setTyping(null);
    const typed = parseSliderText(typing, bounds);
    if (typed === null) return;
    setLocal(typed);
    send(typed);
  };
  const onBoxKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      take();
    } else if (e.key === 'Escape') {
      setTyping(null);
    } else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      e.preventDefault();
      const from = typing === null ? local : (parseSliderText(typing, bounds) ?? local);
      setTyping(null);
      setLocal(stepSlider(from, e.key === 'ArrowUp' ? 1 : -1, bounds));
    }
  };
  const shown = local.toFixed(sliderDecimals(bounds));
  return (
    <div className="field field-slider">
      <div className="slider-head">
        <label htmlFor={id}>{label}</label>
        <input
          className="input slider-value"
          type="text"
          inputMode="decimal"
          role="spinbutton"
          aria-label={`${label} value`}
          aria-valuemin={min}
          aria-valuemax={max}
          aria-valuenow={local}
          autoComplete="off"
          spellCheck={false}
          value={typing ?? shown}
          onChange={(e) => setTyping(e.target.value)}
          onKeyDown={onBoxKey}
          onKeyUp={(e) => {
            if (e.key === 'ArrowUp' || e.key === 'ArrowDown') send();
          }}
          onBlur={take}
        />
      </div>
      <div className="slider-row">
        <span className="slider-end" aria-hidden="true">
          {min}
        </span>
        <input
          id={id}
          type="range"
          className="slider"
          min={min}
          max={max}
          step={step}
          value={local}
          style={{ ['--fill' as string]: `${((local - min) / (max - min || 1)) * 100}%` }}
          onPointerDown={() => (dragging.current = true)}
          onChange={(e) => {
            setTyping(null);
            setLocal(Number(e.target.value));
          }}
          onPointerUp={() => send()}
          onKeyUp={() => send()}
          onBlur={() => send()}
        />
        <span className="slider-end" aria-hidden="true">
          {max}
        </span>
      </div>
    </div>
  );
}

/** A switch, sent on each toggle. */
export function SwitchField({ label, value, onChange }: Props) {
  const on = value === true || value === 'true';
  return (
    <div className="field field-switch">
      <button type="button" role="switch" aria-checked={on} aria-label={label} className={`switch${on ? ' on' : ''}`} onClick={() => onChange(!on)}>
        <span className="knob" />
      </button>
      <span className="switch-label">{label}</span>
    </div>
  );
}

/** Multi-select and checkbox lists: a list of the chosen option ids (with `asText`, those ids comma-separated). */
export function MultiField({ field, label, value, onChange, asText = false }: Props & { asText?: boolean }) {
  const chosen = new Set(Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? value.split(',') : []);
  return (
    <fieldset className="field field-multi">
      <legend>{label}</legend>
      <div className="chips">
        {(field.options ?? []).map((o) => (
          <label key={o.id} className={`chip${chosen.has(o.id) ? ' on' : ''}`}>
            <input
              type="checkbox"
              checked={chosen.has(o.id)}
              onChange={(e) => {
                const next = new Set(chosen);
                if (e.target.checked) next.add(o.id);
                else next.delete(o.id);
                const ids = (field.options ?? []).map((x) => x.id).filter((x) => next.has(x));
                onChange(asText ? ids.join(',') : ids);
              }}
            />
            {o.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The models of /api/providers grouped by provider. */
export function modelGroups(providers: readonly ProviderDefinition[]): Array<{ label: string; options: Array<{ id: string; label: string }> }> {
  return providers
    .filter((p) => p.models.length > 0)
    .map((p) => ({ label: p.name, options: p.models.map((m) => ({ id: m.id, label: m.id })) }));
}

/**
 * A combobox: type anything, or pick from the list (models grouped by provider). Sent on Enter,
 * on choosing, or on leaving the field.
 */
export function ComboboxField({ field, label, value, onChange, groups }: Props & { groups: Array<{ label: string; options: Array<{ id: string; label: string }> }> }) {
  const id = useId();
  const listId = `${id}-list`;
  const current = value === null || value === undefined ? '' : String(value);
  const [text, setText] = useState(current);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const typed = useRef(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!typed.current) setText(current);
  }, [current]);
  const filtered = useMemo(() => {
    const q = typed.current ? text.trim().toLowerCase() : '';
    return groups.map((g) => ({ ...g, options: g.options.filter((o) => !q || o.label.toLowerCase().includes(q) || g.label.toLowerCase().includes(q)) })).filter((g) => g.options.length > 0);
  }, [groups, text]);
  const flat = filtered.flatMap((g) => g.options);
  const send = (next: string) => {
    typed.current = false;
    setText(next);
    setOpen(false);
    if (next !== current) onChange(next);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
      setActive((a) => (flat.length === 0 ? 0 : (a + (e.key === 'ArrowDown' ? 1 : flat.length - 1)) % flat.length));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      send(open && flat[active] && !typed.current ? flat[active].id : text.trim());
    } else if (e.key === 'Escape') setOpen(false);
  };
  let index = -1;
  return (
    <div className="field field-combobox">
      <label htmlFor={id}>{label}</label>
      <div className="combo">
        <input
          ref={input}
          id={id}
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          className="input"
          placeholder={field.placeholder}
          value={text}
          autoComplete="off"
          onFocus={() => setOpen(true)}
          onChange={(e) => {
            typed.current = true;
            setText(e.target.value);
            setOpen(true);
            setActive(0);
          }}
          onBlur={() =>
            window.setTimeout(() => {
              setOpen(false);
              if (typed.current) send(text.trim());
            }, 150)
          }
          onKeyDown={onKeyDown}
        />
        <ComboToggle label={label} open={open} input={input} show={() => setOpen(true)} close={() => setOpen(false)}>
          ▾
        </ComboToggle>
        {open && flat.length > 0 && (
          <div className="combo-list" id={listId} role="listbox" aria-label={label}>
            {filtered.map((g) => (
              <div key={g.label} role="group" aria-label={g.label}>
                <div className="combo-group">{g.label}</div>
                {g.options.map((o) => {
                  index++;
                  const i = index;
                  return (
                    <div
                      key={o.id}
                      role="option"
                      aria-selected={o.id === current}
                      className={`combo-option${i === active ? ' on' : ''}${o.id === current ? ' chosen' : ''}`}
                      onMouseDown={(e) => {
                        e.preventDefault();
                        send(o.id);
                      }}
                    >
                      {o.label}
                    </div>
                  );
                })}
              </div>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}
