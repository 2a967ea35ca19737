import { describe, expect, it } from 'vitest';
import { defaultConditions } from '../../canvas/handles';
import { addElseIf, removeRow, storedRows, tableRows } from './tables';

describe('table and condition values', () => {
  it('read table rows of Key and Value, dropping empty ones when stored', () => {
    expect(tableRows([{ id: 'a', cells: { Key: 'x', Value: 1 } }, 'junk'], ['Key', 'Value'])).toEqual([{ id: 'a', cells: { Key: 'x', Value: '1' } }]);
    expect(tableRows(null, ['Key', 'Value'])).toEqual([]);
    expect(storedRows([{ id: 'a', cells: { Key: '', Value: ' ' } }, { id: 'b', cells: { Key: 'k', Value: '' } }])).toEqual([{ id: 'b', cells: { Key: 'k', Value: '' } }]);
  });
  it('add else-if rows before the else and keep if and else', () => {
    const rows = addElseIf(defaultConditions('c'), 'c-2');
    expect(rows.map((r) => [r.id, r.title])).toEqual([['c-if', 'if'], ['c-2', 'else if'], ['c-else', 'else']]);
    expect(removeRow(rows, 'c-if')).toBe(rows);
    expect(removeRow(rows, 'c-else')).toBe(rows);
    expect(removeRow(rows, 'c-2').map((r) => r.title)).toEqual(['if', 'else']);
  });
});
