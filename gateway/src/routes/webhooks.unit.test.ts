import { describe, expect, it } from 'vitest';
import { webhookQuery, withoutSecret } from './webhooks.js';

describe("a webhook call's query as the run's input keeps it", () => {
  it('a key given once is a string; a repeated key is an array of its values in the order sent', () => {
    expect(webhookQuery('/api/webhooks/trigger/orders?tag=a&q=x&tag=b&tag=c')).toEqual({ tag: ['a', 'b', 'c'], q: 'x' });
    expect(webhookQuery('/api/webhooks/trigger/orders?tag=a')).toEqual({ tag: 'a' });
    expect(webhookQuery('/api/webhooks/trigger/orders')).toEqual({});
  });

  it('decodes values, keeps empty ones, and keeps a key named __proto__ as a plain field', () => {
    const query = webhookQuery('/hook?name=J%C3%BCrgen+M&empty=&empty=x&__proto__=a&__proto__=b');
    expect(query).toEqual({ name: 'Jürgen M', empty: ['', 'x'], ['__proto__']: ['a', 'b'] });
    expect(Object.getPrototypeOf(query)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(query))).toMatchObject({ empty: ['', 'x'] });
  });

  it("writes the hook's secret [REDACTED] in every value of a repeated key", () => {
    const query = webhookQuery('/hook?token=s3cret&token=other&tag=a&tag=s3cret-x');
    expect(withoutSecret(query, 's3cret')).toEqual({ token: ['[REDACTED]', 'other'], tag: ['a', '[REDACTED]-x'] });
    expect(withoutSecret(query, '')).toBe(query);
  });
});
