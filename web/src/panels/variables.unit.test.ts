import { describe, expect, it } from 'vitest';
import type { Variable } from '@weft/workflow';
import { valueText, variableUpdate } from './variables';

const count: Variable = { id: 'v1', workflowId: 'wf', name: 'count', type: 'number', value: 3 };

describe('a variable in the panel', () => {
  it('shows strings as they are and other values as JSON', () => {
    expect(valueText('abc')).toBe('abc');
    expect(valueText(3)).toBe('3');
    expect(valueText({ a: [1] })).toBe('{"a":[1]}');
    expect(valueText(undefined)).toBe('');
  });

  it('sends only the fields that changed', () => {
    expect(variableUpdate(count, { name: 'total' })).toEqual({ type: 'updateVariable', id: 'v1', name: 'total' });
    expect(variableUpdate(count, { variableType: 'plain', value: '4' })).toEqual({ type: 'updateVariable', id: 'v1', variableType: 'plain', value: '4' });
  });

  it('sends nothing when nothing changed, a value shown as text included', () => {
    expect(variableUpdate(count, { name: 'count', variableType: 'number', value: '3' })).toBeNull();
    expect(variableUpdate(count, {})).toBeNull();
  });
});
