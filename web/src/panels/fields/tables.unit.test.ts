import { describe, expect, it } from 'vitest';
import { defaultConditions } from '../../canvas/handles';
import { addElseIf, cellText, cellTitle, formatRows, formatValue, removeRow, storedRows, tableRows } from './tables';

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

describe('input format rows (the Response builder, the starter input, evaluator metrics)', () => {
  const columns = ['name', 'type', 'value'];
  const stored = [
    { id: 'r1', name: 'answer', type: 'string', value: '<agent.content>' },
    // From YAML or the copilot: a value that is an object, and a key the form has no column for.
    { id: 'r2', name: 'meta', type: 'object', value: { source: 'agent', tags: ['a', 'b'] }, description: 'kept' },
    { id: 'r3', name: 'count', type: 'number', value: 3 },
  ];

  it('shows text as is, and any other value as its JSON text', () => {
    expect(formatRows(stored, columns).map((r) => r.cells.value)).toEqual(['<agent.content>', '{"source":"agent","tags":["a","b"]}', '3']);
    expect(cellText(null)).toBe('');
    expect(cellText(false)).toBe('false');
    expect(formatRows('junk', columns)).toEqual([]);
  });

  it('writes the rows back as they were stored when none was edited: objects, numbers and other keys kept', () => {
    expect(formatValue(formatRows(stored, columns), columns)).toEqual(stored);
    expect(JSON.stringify(formatValue(formatRows(stored, columns), columns))).toBe(JSON.stringify(stored));
  });

  it('writes an edited cell as the text typed, keeping the rest of its row and the other rows', () => {
    const rows = formatRows(stored, columns);
    const edited = rows.map((r) => (r.id === 'r1' ? { ...r, cells: { ...r.cells, name: 'reply' } } : r.id === 'r2' ? { ...r, cells: { ...r.cells, value: '{"source":"user"}' } } : r));
    expect(formatValue(edited, columns)).toEqual([
      { id: 'r1', name: 'reply', type: 'string', value: '<agent.content>' },
      { id: 'r2', name: 'meta', type: 'object', value: '{"source":"user"}', description: 'kept' },
      { id: 'r3', name: 'count', type: 'number', value: 3 },
    ]);
  });

  it('gives a row without an id one, stores a new row with its cells, and keeps dotted columns in their object', () => {
    expect(formatValue(formatRows([{ name: 'q' }], ['name', 'type']), ['name', 'type'])).toEqual([{ id: 'f-0', name: 'q', type: '' }]);
    expect(formatValue([{ id: 'n', cells: { name: 'x', type: 'string', value: '' }, stored: {} }], columns)).toEqual([{ id: 'n', name: 'x', type: 'string', value: '' }]);
    const metrics = ['name', 'range.min', 'range.max'];
    const rows = formatRows([{ id: 'm', name: 'accuracy', range: { min: 0, max: 10, step: 1 } }], metrics);
    expect(rows[0]?.cells).toEqual({ name: 'accuracy', 'range.min': '0', 'range.max': '10' });
    const edited = rows.map((r) => ({ ...r, cells: { ...r.cells, 'range.max': '5' } }));
    expect(formatValue(edited, metrics)).toEqual([{ id: 'm', name: 'accuracy', range: { min: 0, max: 5, step: 1 } }]);
  });
});

describe('a table cell’s tooltip', () => {
  it('holds the whole value, a reference its end too, however narrow the cell', () => {
    expect(cellTitle('Bearer <agent1.content>')).toBe('Bearer <agent1.content>');
  });

  it('is none for an empty cell', () => {
    expect(cellTitle('')).toBeUndefined();
  });
});
