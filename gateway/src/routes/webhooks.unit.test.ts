import { describe, expect, it } from 'vitest';
import { webhookBody, webhookQuery, withoutSecret } from './webhooks.js';

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

  it("writes the secret [REDACTED] percent- and form-encoded too (a forwarded URL or a Referer carrying the query)", () => {
    const secret = 'a/b+c d?é';
    const headers = { 'x-forwarded-uri': `/hook?token=${encodeURIComponent(secret)}&x=1`, referer: `https://app.example/?${new URLSearchParams({ token: secret })}`, lower: '/hook?token=a%2fb%2bc%20d%3f%c3%a9' };
    expect(withoutSecret(headers, secret)).toEqual({ 'x-forwarded-uri': '/hook?token=[REDACTED]&x=1', referer: 'https://app.example/?token=[REDACTED]', lower: '/hook?token=[REDACTED]' });
  });
});

describe("a webhook call's form body as the run's input keeps it", () => {
  const form = (text: string, type = 'application/x-www-form-urlencoded') => webhookBody(type, Buffer.from(text));

  it('a field given once is a string; a repeated field is an array of its values in the order sent, as in the query', () => {
    expect(form('tag=a&q=x&tag=b&tag=c')).toEqual({ ok: true, value: { tag: ['a', 'b', 'c'], q: 'x' } });
    expect(form('tag=a', 'application/x-www-form-urlencoded; charset=UTF-8')).toEqual({ ok: true, value: { tag: 'a' } });
    expect(form('name=J%C3%BCrgen+M&empty=&empty=x')).toEqual({ ok: true, value: { name: 'Jürgen M', empty: ['', 'x'] } });
  });

  it('keeps a field named __proto__ as a plain field, repeated or not', () => {
    for (const text of ['__proto__=a&__proto__=b', '__proto__=a']) {
      const body = form(text);
      if (!body.ok) throw new Error('the form did not parse');
      expect(Object.getPrototypeOf(body.value)).toBe(Object.prototype);
      expect(Object.keys(body.value as object)).toEqual(['__proto__']);
    }
    expect(form('__proto__=a&__proto__=b')).toEqual({ ok: true, value: { ['__proto__']: ['a', 'b'] } });
  });

  it('reads other bodies as before: JSON parsed (bad JSON refused), other text as a string, nothing as null', () => {
    expect(form('{"tag":["a"]}', 'application/json')).toEqual({ ok: true, value: { tag: ['a'] } });
    expect(form('{"tag":', 'application/json')).toEqual({ ok: false, message: 'Request body must be valid JSON' });
    expect(form('tag=a&tag=b', 'text/plain')).toEqual({ ok: true, value: 'tag=a&tag=b' });
    expect(form('')).toEqual({ ok: true, value: null });
  });

  it('refuses bodies the run could not keep as sent: bytes not UTF-8, NUL, lone surrogates (in JSON, a form or text)', () => {
    const bytes = (data: number[], type: string) => webhookBody(type, Buffer.from(data));
    expect(bytes([0x7b, 0x22, 0x61, 0x22, 0x3a, 0xff, 0x7d], 'application/json')).toEqual({ ok: false, message: 'Request body is not valid UTF-8' });
    expect(bytes([0x61, 0xc3], 'text/plain')).toEqual({ ok: false, message: 'Request body is not valid UTF-8' });
    expect(form('{"event":{"text":"a\\u0000"}}', 'application/json')).toEqual({ ok: false, message: 'event.text must not contain the NUL character (U+0000)' });
    expect(form('{"t":"\\ud800"}', 'application/json')).toEqual({ ok: false, message: 't must be well-formed text (it holds a lone UTF-16 surrogate)' });
    expect(form('name=a%00')).toEqual({ ok: false, message: 'name must not contain the NUL character (U+0000)' });
    expect(form(`${'['.repeat(300)}${']'.repeat(300)}`, 'application/json')).toMatchObject({ ok: false, message: expect.stringContaining('nested too deeply') });
    // Millions of levels (and JSON that would not even parse) are refused from the bytes, naming where, before any parse.
    expect(form(`{"e":${'['.repeat(2_000_000)}`, 'application/json')).toEqual({ ok: false, message: 'Request body is nested too deeply at e.0.0.0.0.0.… (at most 200 levels of objects and arrays)' });
  });
});
