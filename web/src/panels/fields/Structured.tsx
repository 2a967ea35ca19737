import { useEffect, useState } from 'react';
import type { SubBlockConfig } from '@weft/catalog';
import { conditionRows, type ConditionRow } from '../../canvas/handles';
import { newId } from '../../collab/useWorkflowSession';
import { Icon } from '../../ui/icons';
import { RefText } from './RefText';
import { addElseIf, cellTitle, formatRows, formatValue, removeRow, storedRows, tableRows, type FormatRow, type TableRow } from './tables';

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
                <td key={c} title={cellTitle(row.cells[c] ?? '')}>
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

const FORMAT_TYPES = ['string', 'number', 'boolean', 'object', 'array'];

/** How a builder row's value is edited: one line in which `<` offers upstream outputs and `{{` environment variables. */
const VALUE_CELL: SubBlockConfig = { id: 'value', type: 'short-input', placeholder: 'value' };

/**
 * Input formats: rows with a name and a type (or the field's own columns: the Response block's name,
 * type and value; the evaluator's metrics). A value cell offers references as any text field does; a
 * cell holding an object or a list (from YAML or the copilot) shows its JSON and is stored as it was
 * unless edited, and a row's keys outside the columns are kept (tables.ts `formatValue`).
 */
export function InputFormatField({ field, label, value, onChange }: Props) {
  const columns = field.columns ?? ['name', 'type'];
  const json = JSON.stringify(value ?? null);
  const [rows, setRows, focus, blur] = useRows<FormatRow>(() => formatRows(value, columns), json);
  const send = (list: FormatRow[]) => {
    const next = formatValue(list, columns);
    if (JSON.stringify(next) !== json) onChange(next);
  };
  const edit = (id: string, column: string, text: string) => rows.map((r) => (r.id === id ? { ...r, cells: { ...r.cells, [column]: text } } : r));
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
                value={row.cells[c] || 'string'}
                onChange={(e) => {
                  const next = edit(row.id, c, e.target.value);
                  setRows(next);
                  send(next);
                }}
              >
                {FORMAT_TYPES.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
            ) : c === 'value' ? (
              <RefText
                key={c}
                field={VALUE_CELL}
                label={`${label} ${i + 1} value`}
                labelHidden
                multiLine={false}
                value={row.cells[c] ?? ''}
                send={(text) => {
                  if (text === (row.cells[c] ?? '')) return true;
                  const next = edit(row.id, c, text);
                  setRows(next);
                  send(next);
                  return true;
                }}
              />
            ) : (
              <input
                key={c}
                className="input"
                aria-label={`${label} ${i + 1} ${c}`}
                placeholder={c}
                value={row.cells[c] ?? ''}
                onFocus={focus}
                onChange={(e) => setRows(edit(row.id, c, e.target.value))}
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
          const next = [...rows, { id: newId(), cells: Object.fromEntries(columns.map((c) => [c, c === 'type' ? 'string' : ''])), stored: {} }];
          setRows(next);
          send(next);
        }}
      >
        <Icon name="plus" size={12} /> Add field
      </button>
    </div>
  );
}
