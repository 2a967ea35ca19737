import { describe, expect, it } from 'vitest';
import { apiInputFields, checkApiInput, inputOfText } from './apiInput.js';

const fields = [
  { name: 'name', type: 'string' },
  { name: 'age', type: 'number' },
  { name: 'vip', type: 'boolean' },
  { name: 'address', type: 'object' },
  { name: 'tags', type: 'array' },
];
const starter = (subBlocks: Record<string, unknown>) => ({ s: { type: 'starter', subBlocks: Object.fromEntries(Object.entries(subBlocks).map(([k, value]) => [k, { value }])) } });

describe('the input of an API call against the starter’s input format', () => {
  it('reads the fields of a manual starter (the form shows the format only then)', () => {
    const rows = [{ id: '1', name: 'age', type: 'number' }];
    expect(apiInputFields(starter({ inputFormat: rows }))).toEqual([{ name: 'age', type: 'number' }]);
    expect(apiInputFields(starter({ startWorkflow: 'manual', inputFormat: JSON.stringify(rows) }))).toEqual([{ name: 'age', type: 'number' }]);
    expect(apiInputFields(starter({ startWorkflow: 'webhook', inputFormat: rows }))).toEqual([]);
    expect(apiInputFields({})).toEqual([]);
  });

  it('takes values of their type, and text that reads as the type (as Sim does)', () => {
    expect(checkApiInput(fields, { name: 'Ada', age: 36, vip: true, address: { city: 'Paris' }, tags: ['a'], extra: 1 })).toEqual({ name: 'Ada', age: 36, vip: true, address: { city: 'Paris' }, tags: ['a'], extra: 1 });
    expect(checkApiInput(fields, { name: 7, age: ' 36 ', vip: 'FALSE', address: '{"city":"Paris"}', tags: '[1,2]' })).toEqual({ name: '7', age: 36, vip: false, address: { city: 'Paris' }, tags: [1, 2] });
    // Fields left out stay out; null is no value; no format, no check.
    expect(checkApiInput(fields, { age: null })).toEqual({ age: null });
    expect(checkApiInput(fields, null)).toBeNull();
    expect(checkApiInput([], [1, 2])).toEqual([1, 2]);
  });

  it('refuses a value its field’s type cannot read, naming the field and what came, never the value', () => {
    const refused = (input: unknown) => {
      try {
        checkApiInput(fields, input);
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    };
    expect(refused({ age: 'thirty-six' })).toBe('Input field "age" must be a number (the workflow\'s input format), got text');
    expect(refused({ age: '' })).toBe('Input field "age" must be a number (the workflow\'s input format), got text');
    expect(refused({ vip: 'yes' })).toBe('Input field "vip" must be true or false (the workflow\'s input format), got text');
    expect(refused({ address: '[1]' })).toBe('Input field "address" must be a JSON object (the workflow\'s input format), got text');
    expect(refused({ tags: { a: 1 } })).toBe('Input field "tags" must be a JSON array (the workflow\'s input format), got an object');
    expect(refused({ name: { first: 'Ada' } })).toBe('Input field "name" must be text (the workflow\'s input format), got an object');
    expect(refused([1, 2])).toBe("Request body must be a JSON object of the workflow's input fields (name, age, vip, address, tags), got an array");
  });
});

describe('a body sent without a JSON content type', () => {
  it('is JSON when it reads as JSON, a form as its fields, nothing as null', () => {
    expect(inputOfText('application/x-www-form-urlencoded', '{"name":"Ada"}')).toEqual({ name: 'Ada' });
    expect(inputOfText(undefined, '[1]')).toEqual([1]);
    expect(inputOfText('application/x-www-form-urlencoded', 'name=Ada&tag=a&tag=b')).toEqual({ name: 'Ada', tag: ['a', 'b'] });
    expect(inputOfText('text/plain', '  ')).toBeNull();
  });

  it('is a 400 naming the content type otherwise', () => {
    expect(() => inputOfText('text/plain; charset=utf-8', 'hello')).toThrow('Request body must be JSON (Content-Type: application/json) or a form; Content-Type text/plain that is not JSON was sent');
    expect(() => inputOfText(undefined, '<a/>')).toThrow('a body without Content-Type that is not JSON was sent');
    expect(() => inputOfText('text/plain', '"text"')).toThrow('Request body must be a JSON object');
  });
});
