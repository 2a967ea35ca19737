import type { ConditionRow } from '../../canvas/handles';
import { retitle } from '../../canvas/handles';

/** A table row (spec 000 §3): an id and its cells by column. */
export interface TableRow {
  id: string;
  cells: Record<string, string>;
}

/** The rows of a table value; anything else is an empty table. */
export function tableRows(value: unknown, columns: readonly string[]): TableRow[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null)
    .map((r, i) => {
      const cells = typeof r.cells === 'object' && r.cells !== null ? (r.cells as Record<string, unknown>) : {};
      return { id: typeof r.id === 'string' ? r.id : `row-${i}`, cells: Object.fromEntries(columns.map((c) => [c, cells[c] === undefined || cells[c] === null ? '' : String(cells[c])])) };
    });
}

/** Rows as stored: the empty trailing rows dropped. */
export function storedRows(rows: TableRow[]): TableRow[] {
  return rows.filter((r) => Object.values(r.cells).some((c) => c.trim() !== ''));
}

/** Adds an else-if row before the else. */
export function addElseIf(rows: ConditionRow[], id: string): ConditionRow[] {
  const next = [...rows];
  next.splice(Math.max(rows.length - 1, 1), 0, { id, title: 'else if', value: '' });
  return retitle(next);
}

/** Removes a row; the first (if) and last (else) stay. */
export function removeRow(rows: ConditionRow[], id: string): ConditionRow[] {
  const at = rows.findIndex((r) => r.id === id);
  if (at <= 0 || at === rows.length - 1) return rows;
  return retitle(rows.filter((r) => r.id !== id));
}

/**
 * One entry of an input format (the starter's API input, the Response block's builder rows, the
 * evaluator's metrics) as edited: its cells as text by column, and the row as stored, so what the
 * form does not edit survives a save.
 */
export interface FormatRow {
  id: string;
  cells: Record<string, string>;
  stored: Readonly<Record<string, unknown>>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A row's stored value at a column; `range.min` is `min` of the row's `range`. */
function storedCell(row: Readonly<Record<string, unknown>>, column: string): unknown {
  const [head = '', tail] = column.split('.');
  if (tail === undefined) return row[column];
  const nested = row[head];
  return isRecord(nested) ? nested[tail] : undefined;
}

/** How a stored value shows in a cell: text as is, nothing as empty, anything else (a number, an object or a list from YAML or the copilot) as its JSON text. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The rows of an input format's value, each with its cells by column; anything else is no rows. */
export function formatRows(value: unknown, columns: readonly string[]): FormatRow[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((r, i) => ({
    id: typeof r.id === 'string' ? r.id : `f-${i}`,
    cells: Object.fromEntries(columns.map((c) => [c, cellText(storedCell(r, c))])),
    stored: r,
  }));
}

/**
 * An input format's value from its rows: each row as it was stored — keys outside the columns kept —
 * with its id and its columns; a cell not edited since it was read keeps its stored value as it was
 * (an object stays an object, a number a number), an edited one is the text typed (a number in a
 * `min` or `max` column). A new row stores its cells, empty ones as ''.
 */
export function formatValue(rows: readonly FormatRow[], columns: readonly string[]): Record<string, unknown>[] {
  return rows.map((row) => {
    // The stored keys in their order (an unedited row is stored as it was), the id first when it had none.
    const out: Record<string, unknown> = 'id' in row.stored ? { ...row.stored } : { id: row.id, ...row.stored };
    out.id = row.id;
    for (const c of columns) {
      const was = storedCell(row.stored, c);
      const text = row.cells[c] ?? '';
      const edited = text !== cellText(was);
      const typed = /min|max/.test(c) && text !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
      const next = edited || was === undefined || was === null ? typed : was;
      const [head = '', tail] = c.split('.');
      if (tail === undefined) out[c] = next;
      else out[head] = { ...(isRecord(out[head]) ? out[head] : {}), [tail]: next };
    }
    return out;
  });
}

/**
 * A table cell's tooltip: its whole text when there is any. A cell narrower than its value (a header's
 * `<agent1.content>` in the API block's half-width Value column) shows the start with an ellipsis
 * until focused, when it scrolls with the caret; the tooltip shows the rest without entering it.
 */
export const cellTitle = (text: string): string | undefined => (text === '' ? undefined : text);
