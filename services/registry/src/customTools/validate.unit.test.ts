import { describe, expect, it } from 'vitest';
import { validateCustomTools } from './validate.js';

const valid = {
  id: 'weather',
  title: 'Weather',
  schema: { type: 'function', function: { name: 'get_weather', description: 'Current weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
};

describe('validateCustomTools', () => {
  it('accepts a tool without code and fills code and required', () => {
    const [tool] = validateCustomTools([valid]);
    expect(tool?.code).toBe('');
    expect(tool?.schema.function.parameters.required).toEqual([]);
    expect(tool?.schema.type).toBe('function');
  });

  it.each([
    [{ ...valid, id: 7 }, 'Invalid custom tool "Weather": id must be a non-empty string'],
    [{ ...valid, title: '' }, 'Invalid custom tool "weather": title must be a non-empty string'],
    [{ ...valid, schema: 'x' }, 'Invalid custom tool "Weather": schema must be an object'],
    [{ ...valid, schema: { function: { ...valid.schema.function, name: undefined } } }, 'Invalid custom tool "Weather": schema.function.name must be a non-empty string'],
    [{ ...valid, schema: { function: { ...valid.schema.function, description: 3 } } }, 'Invalid custom tool "Weather": schema.function.description must be a string'],
    [{ ...valid, schema: { function: { ...valid.schema.function, parameters: { properties: {}, required: [1] } } } }, 'Invalid custom tool "Weather": schema.function.parameters.required.0 must be a string'],
    [{ ...valid, schema: { function: { ...valid.schema.function, parameters: { required: [] } } } }, 'Invalid custom tool "Weather": schema.function.parameters.properties must be an object'],
    [5, 'Invalid custom tool #2: must be an object'],
  ])('refuses %j naming the tool and the field', (bad, message) => {
    const batch = typeof bad === 'number' ? [valid, bad] : [bad];
    expect(() => validateCustomTools(batch)).toThrow(message);
  });
});
