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
