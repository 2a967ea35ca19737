import { useEffect, useState } from 'react';
import type { SubBlockConfig } from '@weft/catalog';
import { conditionRows, type ConditionRow } from '../../canvas/handles';
import { newId } from '../../collab/useWorkflowSession';
import { Icon } from '../../ui/icons';
import { RefText } from './RefText';
import { addElseIf, removeRow, storedRows, tableRows, type TableRow } from './tables';

interface Props {
  field: SubBlockConfig;
  label: string;
  value: unknown;
  onChange(value: unknown): void;
}

/** Local rows that follow the value unless the user is editing; `commit` sends them. */
function useRows<T>(fromValue: () => T[], deps: unknown): [T[], (rows: T[]) => void, () => void, () => void] {
  const [rows, setRows] = useState(fromValue);
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (!editing) setRows(fromValue());
  }, [deps, editing]);
  return [rows, setRows, () => setEditing(true), () => setEditing(false)];
}

/** A table (headers, query params, variables): one row per entry, a blank row at the end to add one; a cell offers references like any text field and is sent on leaving it or Enter. */
export function TableField({ field, label, value, onChange }: Props) {
  const columns = field.columns ?? ['Key', 'Value'];
  const json = JSON.stringify(value ?? null);
  const [rows, setRows] = useRows<TableRow>(() => tableRows(value, columns), json);
  // The blank row at the end keeps its key when typed into, so the cell keeps focus.
  const [blankId, setBlankId] = useState(newId);
  const shown = [...rows, { id: blankId, cells: Object.fromEntries(columns.map((c) => [c, ''])) }];
  const send = (next: TableRow[]) => {
    const stored = storedRows(next);
    if (JSON.stringify(stored) !== JSON.stringify(tableRows(value, columns))) onChange(stored);
  };
  return (
    <div className="field field-table">
      <span className="field-label">{label}</span>
      <table className="kv-table" aria-label={label}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c}>{c}</th>
            ))}
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {shown.map((row, r) => (
            <tr key={row.id}>
              {columns.map((c) => (
                <td key={c}>
                  <RefText
                    field={{ id: c, type: 'short-input', placeholder: r === rows.length ? c : undefined }}
                    label={`${label} row ${r + 1} ${c}`}
                    labelHidden
                    multiLine={false}
                    value={row.cells[c] ?? ''}
                    send={(text) => {
                      if (text === (row.cells[c] ?? '')) return true;
                      const blank = row.id === blankId;
                      if (blank) setBlankId(newId());
                      const next = blank ? [...rows, { id: row.id, cells: { ...row.cells, [c]: text } }] : rows.map((x) => (x.id === row.id ? { ...x, cells: { ...x.cells, [c]: text } } : x));
                      setRows(next);
                      send(next);
                      return true;
                    }}
                  />
                </td>
              ))}
              <td className="row-actions">
                {row.id !== blankId && (
                  <button
                    type="button"
                    className="icon-btn"
                    aria-label={`Remove ${label} row ${r + 1}`}
                    onClick={() => {
                      const next = rows.filter((x) => x.id !== row.id);
                      setRows(next);
                      send(next);
                    }}
                  >
                    <Icon name="x" size={12} />
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** How a condition row's expression is edited: a long input with references. */
const CONDITION_FIELD: SubBlockConfig = { id: 'condition', type: 'long-input', placeholder: "<agent1.content> === 'yes'", rows: 2 };

/**
 * The condition editor: if / else if / else rows, each with its own handle on the block. The value
 * is the rows as a JSON array text of {id, title, value}.
 */
export function ConditionField({ label, value, onChange, blockId }: Props & { blockId: string }) {
  const json = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  const [rows, setRows] = useRows<ConditionRow>(() => conditionRows(blockId, value), json);
  const send = (next: ConditionRow[]) => {
    const text = JSON.stringify(next);
    if (text !== json) onChange(text);
  };
  return (
    <div className="field field-conditions" aria-label={label || 'Conditions'} role="group">
      {rows.map((row, i) => (
        <div key={row.id} className="condition-row">
          <div className="condition-head">
            <span className={`cond-title cond-${row.title.replace(' ', '-')}`}>{row.title}</span>
            {i > 0 && i < rows.length - 1 && (
              <button
                type="button"
                className="icon-btn"
                aria-label={`Remove condition ${i + 1}`}
                onClick={() => {
                  const next = removeRow(rows, row.id);
                  setRows(next);
                  send(next);
                }}
              >
                <Icon name="x" size={12} />
              </button>
            )}
          </div>
          {i < rows.length - 1 ? (
            // `<` offers upstream outputs and `{{` environment variables, as in any text field.
            <RefText
              field={CONDITION_FIELD}
              label={`Condition ${i + 1} (${row.title})`}
              labelHidden
              multiLine
              value={row.value}
              send={(text) => {
                const next = rows.map((r) => (r.id === row.id ? { ...r, value: text } : r));
                setRows(next);
                send(next);
                return true;
              }}
            />
          ) : (
            <p className="muted">Runs when no condition above holds.</p>
          )}
        </div>
      ))}
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        onClick={() => {
          const next = addElseIf(rows, `${blockId}-${newId().slice(0, 8)}`);
          setRows(next);
          send(next);
        }}
      >
        <Icon name="plus" size={12} /> Add else if
      </button>
    </div>
  );
}

/** One entry of an input format (starter API input, response structure, evaluator metrics). */
type FormatRow = Record<string, string> & { id: string };
const FORMAT_TYPES = ['string', 'number', 'boolean', 'object', 'array'];

/** Input formats: rows with a name and a type (or the field's own columns, as the evaluator's metrics). */
export function InputFormatField({ field, label, value, onChange }: Props) {
  const columns = field.columns ?? ['name', 'type'];
  const read = (): FormatRow[] =>
    Array.isArray(value)
      ? value
          .filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null)
          .map((r, i) => ({
            id: typeof r.id === 'string' ? r.id : `f-${i}`,
            ...Object.fromEntries(
              columns.map((c) => {
                const [head, tail] = c.split('.');
                const v = tail ? (r[head ?? ''] as Record<string, unknown> | undefined)?.[tail] : r[c];
                return [c, v === undefined || v === null ? '' : String(v)];
              }),
            ),
          }))
      : [];
  const json = JSON.stringify(value ?? null);
  const [rows, setRows, focus, blur] = useRows<FormatRow>(read, json);
  const toValue = (list: FormatRow[]) =>
    list.map((r) => {
      const out: Record<string, unknown> = { id: r.id };
      for (const c of columns) {
        const [head, tail] = c.split('.');
        const v = r[c] ?? '';
        const typed = /min|max/.test(c) && v !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
        if (tail && head) out[head] = { ...(out[head] as Record<string, unknown> | undefined), [tail]: typed };
        else out[c] = typed;
      }
      return out;
    });
  const send = (list: FormatRow[]) => {
    const next = toValue(list);
    if (JSON.stringify(next) !== json) onChange(next);
  };
  return (
    <div className="field field-format">
      <span className="field-label">{label}</span>
      {rows.map((row, i) => (
        <div className="format-row" key={row.id}>
          {columns.map((c) =>
            c === 'type' ? (
              <select
                key={c}
                className="input select"
                aria-label={`${label} ${i + 1} type`}
                value={row[c] || 'string'}
                onChange={(e) => {
                  const next = rows.map((r) => (r.id === row.id ? { ...r, type: e.target.value } : r));
                  setRows(next);
                  send(next);
                }}
              >
                {FORMAT_TYPES.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
            ) : (
              <input
                key={c}
                className="input"
                aria-label={`${label} ${i + 1} ${c}`}
                placeholder={c}
                value={row[c] ?? ''}
                onFocus={focus}
                onChange={(e) => setRows(rows.map((r) => (r.id === row.id ? { ...r, [c]: e.target.value } : r)))}
                onBlur={() => {
                  blur();
                  send(rows);
                }}
              />
            ),
          )}
          <button
            type="button"
            className="icon-btn"
            aria-label={`Remove ${label} ${i + 1}`}
            onClick={() => {
              const next = rows.filter((r) => r.id !== row.id);
              setRows(next);
              send(next);
            }}
          >
            <Icon name="x" size={12} />
          </button>
        </div>
      ))}
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        onClick={() => {
          const next = [...rows, { id: newId(), ...Object.fromEntries(columns.map((c) => [c, c === 'type' ? 'string' : ''])) } as FormatRow];
          setRows(next);
          send(next);
        }}
      >
        <Icon name="plus" size={12} /> Add field
      </button>
    </div>
  );
}
