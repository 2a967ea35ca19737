import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { NextFunction, Request, Response } from 'express';
import { MAX_BODY_DEPTH, NOT_UTF8, bodyFault, rawDepthFault, verifyJson, verifyTextBody, verifyUtf8, wellFormedUrl, withoutProtoKey } from './wellFormedInput.js';
import { parseBody } from './validate.js';

/** `levels` arrays one inside the other, the innermost holding `inner`. */
function nested(levels: number, inner: unknown = 1): unknown {
  let value: unknown = inner;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe('request bodies Postgres could not keep as sent are refused naming the field', () => {
  it('names the field holding the NUL character, in a value or a key, at any depth', () => {
    expect(bodyFault({ name: 'a\0b' })).toBe('name must not contain the NUL character (U+0000)');
    expect(bodyFault({ marketplaceData: { x: ['ok', 'b\u0000'] } })).toBe('marketplaceData.x.1 must not contain the NUL character (U+0000)');
    expect(bodyFault({ variables: { 'A\0': 'v' } })).toBe('The key "A\\u0000" in variables must not contain the NUL character (U+0000)');
    expect(bodyFault('\0')).toBe('Request body must not contain the NUL character (U+0000)');
  });

  it('refuses lone surrogates and keeps well-formed pairs', () => {
    expect(bodyFault({ name: 'a\ud800b' })).toBe('name must be well-formed text (it holds a lone UTF-16 surrogate)');
    expect(bodyFault({ list: ['\udc00'] })).toBe('list.0 must be well-formed text (it holds a lone UTF-16 surrogate)');
    expect(bodyFault({ name: 'emoji 😀 and é' })).toBeUndefined();
  });

  it(`takes ${MAX_BODY_DEPTH} levels of nesting and refuses one more, naming where`, () => {
    expect(bodyFault(nested(MAX_BODY_DEPTH))).toBeUndefined();
    expect(bodyFault(nested(MAX_BODY_DEPTH + 1))).toBe(`Request body is nested too deeply at a.a.a.a.a.a.… (at most ${MAX_BODY_DEPTH} levels of objects and arrays)`);
    // Far deeper than a recursive walk could go: answered, not a stack overflow.
    expect(bodyFault(nested(100_000))).toContain('nested too deeply');
  });

  it('passes ordinary bodies', () => {
    expect(bodyFault({ workspaceId: 'w', n: 1, flags: [true, null], nested: { deep: [{ x: 'y' }] } })).toBeUndefined();
    expect(bodyFault(null)).toBeUndefined();
    expect(bodyFault(undefined)).toBeUndefined();
  });

  it('refuses body bytes read as UTF-8 that are not UTF-8', () => {
    const verify = (bytes: number[], charset = 'utf-8') => () => verifyUtf8({} as never, {} as never, Buffer.from(bytes), charset);
    expect(verify([0x7b, 0x22, 0xff, 0x22, 0x7d])).toThrow(NOT_UTF8);
    expect(verify([0xed, 0xa0, 0x80])).toThrow(NOT_UTF8);
    expect(verify([0x22, 0xc3, 0xa9, 0x22])).not.toThrow();
    // Another charset the text parser converts is no UTF-8 to check.
    expect(verify([0xe9], 'latin1')).not.toThrow();
  });
});

describe('path parameters and query values', () => {
  const routes = () => [
    { method: 'GET', path: '/api/workflows/:id' },
    { method: 'GET', path: '/api/knowledge/:id/documents/:documentId' },
    { method: 'ALL', path: '/api/tools/*rest' },
  ];
  function run(url: string, method = 'GET'): unknown {
    const query = Object.fromEntries(new URL(url, 'http://gateway').searchParams);
    let passed: unknown = 'not called';
    const next: NextFunction = (err?: unknown) => {
      passed = err;
    };
    try {
      wellFormedUrl(routes)({ originalUrl: url, method, query } as unknown as Request, {} as Response, next);
    } catch (err) {
      return err instanceof Error ? err.message : err;
    }
    return passed;
  }

  it('names the path parameter holding %00', () => {
    expect(run('/api/workflows/a%00b')).toBe('Path parameter "id" must not contain the NUL character (U+0000)');
    expect(run('/api/knowledge/k/documents/%00')).toBe('Path parameter "documentId" must not contain the NUL character (U+0000)');
    expect(run('/api/nowhere/%00')).toBe('The path segment "%00" must not contain the NUL character (U+0000)');
    expect(run('/api/tools/a/b%00', 'POST')).toBe('The path segment "b%00" must not contain the NUL character (U+0000)');
  });

  it('names the query parameter holding the NUL character', () => {
    expect(run('/api/workflows?workspaceId=a%00')).toBe('Query parameter "workspaceId" must not contain the NUL character (U+0000)');
    expect(run('/api/workflows?workspaceId=w&after=%2500')).toBeUndefined();
  });
});

describe('records refuse a key named __proto__ instead of dropping it', () => {
  const body = z.object({ variables: withoutProtoKey('variables', z.record(z.string(), z.string())) });
  it('answers a 400 naming it; other keys pass', () => {
    expect(() => parseBody(body, JSON.parse('{"variables":{"__proto__":"secret","A":"b"}}'))).toThrow('variables must not have a key named "__proto__"');
    expect(parseBody(body, { variables: { A: 'b' } })).toEqual({ variables: { A: 'b' } });
  });
});

describe('nesting counted in the bytes, before a body is parsed', () => {
  const raw = (text: string) => rawDepthFault(Buffer.from(text, 'utf8'));
  const deepArrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

  it(`takes ${MAX_BODY_DEPTH} levels and refuses one more in the words of the parsed check, naming where`, () => {
    for (const value of [nested(MAX_BODY_DEPTH), nested(MAX_BODY_DEPTH + 1), { list: [1, { x: [[nested(MAX_BODY_DEPTH)]] }] }, { 'k"ey\\': nested(MAX_BODY_DEPTH) }, [0, 1, [2, nested(MAX_BODY_DEPTH)]]]) {
      const text = JSON.stringify(value);
      expect(raw(text), text.slice(0, 40)).toBe(bodyFault(value));
    }
    expect(raw(`{"marketplaceData":${JSON.stringify(nested(MAX_BODY_DEPTH + 1))}}`)).toBe(`Request body is nested too deeply at marketplaceData.a.a.a.a.a.… (at most ${MAX_BODY_DEPTH} levels of objects and arrays)`);
    expect(raw(`{"a":1,"b":[5,6,${deepArrays(MAX_BODY_DEPTH)}]}`)).toBe(`Request body is nested too deeply at b.2.0.0.0.0.… (at most ${MAX_BODY_DEPTH} levels of objects and arrays)`);
    // A key written with escapes is named as it reads.
    expect(raw(`{"\\u00e9t\\u00e9":${deepArrays(MAX_BODY_DEPTH)}}`)).toContain('nested too deeply at été.0.0');
  });

  it('does not count brackets inside strings, escaped quotes and backslashes included', () => {
    const inString = JSON.stringify({ text: '['.repeat(5_000), quoted: `"\\${'{'.repeat(5_000)}`, end: '\\' });
    expect(raw(inString)).toBeUndefined();
    expect(raw(`{"a":"\\\\","b":${deepArrays(MAX_BODY_DEPTH + 1)}}`)).toContain('nested too deeply at b.0');
  });

  it('refuses millions of levels, which no parse is asked for, and text that is not JSON past the limit', () => {
    expect(raw(deepArrays(2_000_000))).toBe(`Request body is nested too deeply at 0.0.0.0.0.0.… (at most ${MAX_BODY_DEPTH} levels of objects and arrays)`);
    expect(raw('['.repeat(MAX_BODY_DEPTH + 1))).toContain('nested too deeply');
    expect(raw('{"a": 1, "b": [true, null, {"c": "}]"}]}')).toBeUndefined();
  });

  it("as the parsers' verify: JSON always; text only when it starts as JSON does; another charset read as text", () => {
    const verify = (fn: typeof verifyJson, text: string, encoding = 'utf-8') => () => fn({} as never, {} as never, encoding === 'utf-8' ? Buffer.from(text) : Buffer.from(text, 'utf16le'), encoding);
    expect(verify(verifyJson, deepArrays(MAX_BODY_DEPTH + 1))).toThrow('nested too deeply');
    expect(verify(verifyJson, deepArrays(MAX_BODY_DEPTH))).not.toThrow();
    expect(verify(verifyJson, deepArrays(MAX_BODY_DEPTH + 1), 'utf-16le')).toThrow('nested too deeply');
    expect(verify(verifyTextBody, ` \n${deepArrays(MAX_BODY_DEPTH + 1)}`)).toThrow('nested too deeply');
    // A form's value is text: brackets in it are no nesting.
    expect(verify(verifyTextBody, `a=${'['.repeat(MAX_BODY_DEPTH + 1)}`)).not.toThrow();
    expect(() => verifyTextBody({} as never, {} as never, Buffer.from([0x7b, 0xff, 0x7d]), 'utf-8')).toThrow(NOT_UTF8);
  });
});
