import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { NextFunction, Request, Response } from 'express';
import { MAX_BODY_DEPTH, NOT_UTF8, bodyFault, verifyUtf8, wellFormedUrl, withoutProtoKey } from './wellFormedInput.js';
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
