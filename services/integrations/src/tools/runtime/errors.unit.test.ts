import { describe, expect, it } from 'vitest';
import { redact, redactValue, redaction } from './errors.js';

// Characters that every encoding writes differently: a space, a slash, a plus, a question mark, a non-ASCII letter.
const SECRET = 'a b/c+d?é';

describe('redaction: a secret in every form a result, error or log carries it', () => {
  const secrets = redaction([SECRET]);

  it('finds it percent-encoded in an error quoting a URL', () => {
    const url = `https://api.example/v1/items?api_key=${encodeURIComponent(SECRET)}&page=2`;
    expect(url).not.toContain(SECRET);
    expect(redact(`GET ${url} failed: 401 Unauthorized`, secrets)).toBe('GET https://api.example/v1/items?api_key=[REDACTED]&page=2 failed: 401 Unauthorized');
    // A redirect URL built with encodeURI keeps the slash, plus and question mark as they are.
    expect(redact(`redirected to https://app.example/cb#token=${encodeURI(SECRET)}`, secrets)).toBe('redirected to https://app.example/cb#token=[REDACTED]');
  });

  it('finds it form-encoded in a provider echoing a form body', () => {
    const body = new URLSearchParams({ client_secret: SECRET, grant_type: 'client_credentials' }).toString();
    expect(body).toContain('client_secret=a+b%2Fc%2Bd%3F%C3%A9');
    expect(redact(`invalid_client: body was ${body}`, secrets)).toBe('invalid_client: body was client_secret=[REDACTED]&grant_type=client_credentials');
  });

  it('finds it JSON-escaped in a text quoting a JSON body, also as ASCII-only writers escape it', () => {
    const quoted = `400 Bad Request: ${JSON.stringify({ key: 'x"' + SECRET })}`;
    expect(redact(quoted, secrets)).toBe('400 Bad Request: {"key":"x\\"[REDACTED]"}');
    expect(redact('400: {"key": "a b/c+d?\\u00e9"}', secrets)).toBe('400: {"key": "[REDACTED]"}');
    const escaping = redaction(['q"uo\\ted-secret']);
    expect(redact(`echo ${JSON.stringify({ auth: 'q"uo\\ted-secret' })}`, escaping)).toBe('echo {"auth":"[REDACTED]"}');
  });

  it('finds a long random-looking secret lower-cased, and secrets inside the strings and keys of a value, keeping its shape and never merging keys', () => {
    expect(redact('a header echoed as tok-abcd-x9z1q7', redaction(['Tok-ABCD-x9z1Q7']))).toBe('a header echoed as [REDACTED]');
    const value = { data: { url: `/x?k=${encodeURIComponent(SECRET)}`, n: 1, [SECRET]: [`form ${new URLSearchParams({ k: SECRET })}`] }, ok: false };
    expect(redactValue(value, secrets)).toEqual({ data: { url: '/x?k=[REDACTED]', n: 1, '[REDACTED]': ['form k=[REDACTED]'] }, ok: false });
    // Two keys redacted alike (or like a key already there) are never merged: no value is dropped.
    const keyed = { [SECRET]: 1, [encodeURIComponent(SECRET)]: 2, '[REDACTED]': 3, other: 4 };
    expect(redactValue(keyed, secrets)).toEqual({ '[REDACTED] (2)': 1, '[REDACTED] (3)': 2, '[REDACTED]': 3, other: 4 });
    const clean = { data: 'nothing here' };
    expect(redactValue(clean, secrets)).toBe(clean);
  });

  it('looks for short and word-like values as given only: results and texts that merely share a word stay intact (review of issue 11)', () => {
    const words = redaction(['TRUE', 'Data']);
    // The key 'data' is kept beside 'Data' (redacted as the exact value it is), not dropped.
    expect(words.value({ status: 'true positive', items: { data: [1], Data: [2] } })).toEqual({ status: 'true positive', items: { data: [1], '[REDACTED]': [2] } });
    expect(words.text('construed truely, TRUE Data')).toBe('construed truely, [REDACTED] [REDACTED]');
    const env = redaction(['Prod', 'EU-WEST-1', 'Production-Environment']);
    expect(env.text('Production in eu-west-1, production-environment')).toBe('[REDACTED]uction in eu-west-1, production-environment');
    expect(env.forms).not.toContain('prod');
  });

  it('finds lower-case percent hex, a JSON-escaped slash and upper-case \\u escapes', () => {
    expect(redact('GET /x?k=a%20b%2fc%2bd%3f%c3%a9', secrets)).toBe('GET /x?k=[REDACTED]');
    expect(redact('{"k":"a b\\/c+d?\\u00E9"}', secrets)).toBe('{"k":"[REDACTED]"}');
    expect(redact('{"k":"a b\\/c+d?\\u00e9"}', secrets)).toBe('{"k":"[REDACTED]"}');
  });

  it('looks only for the forms a text holds, with a few secrets and with hundreds (one scan of the text), the longer form first', () => {
    const many = Array.from({ length: 300 }, (_, i) => `sk-${String(i).padStart(4, '0')}-Zq8w`);
    for (const list of [many.slice(0, 3), many]) {
      const r = redaction([...list, `${list[1]}-longer`]);
      expect(r.forms.length).toBeGreaterThan(0);
      expect(r.text('nothing to hide here')).toBe('nothing to hide here');
      expect(r.text(`a ${list[0]} b ${list[1]}-longer c ${encodeURIComponent(list[1] as string)} ${list.at(-1)}`)).toBe('a [REDACTED] b [REDACTED] c [REDACTED] [REDACTED]');
      expect(r.text(`${list[0]}`)).toBe('[REDACTED]');
      expect(r.text(`x${list[0]}`)).toBe('x[REDACTED]');
      expect(r.value({ a: [`k=${list[1]}`], b: 'clean' })).toEqual({ a: ['k=[REDACTED]'], b: 'clean' });
      expect(r.text('sk-0000-Zq8')).toBe('sk-0000-Zq8');
    }
  });

  it('leaves secrets under four characters, and blanks, alone; adds a token known later', () => {
    const few = redaction(['abc', '', undefined]);
    expect(few.forms).toEqual([]);
    expect(redact('abc is a word', few)).toBe('abc is a word');
    few.add('tok-12345');
    expect(redact('Bearer tok-12345', few)).toBe('Bearer [REDACTED]');
    expect(redact('abc', few)).toBe('abc');
  });

  it('expands each secret once, when built: the forms are listed longest first without repeats', () => {
    const forms = redaction([SECRET, SECRET]).forms;
    expect(new Set(forms).size).toBe(forms.length);
    expect(forms).toContain(encodeURIComponent(SECRET));
    expect([...forms].sort((a, b) => b.length - a.length)).toEqual(forms);
  });
});

describe('redaction: overlapping secrets', () => {
  const a = 'abcdef12345';
  const b = '12345XYZ-secret';

  it('hides the whole of two secrets that overlap in a text, whichever comes first or is longer, as one marker', () => {
    for (const r of [redaction([a, b]), redaction([b, a])]) {
      expect(r.text(`key: ${a}XYZ-secret!`)).toBe('key: [REDACTED]!');
      // Back to back (adjacent) they are one marker too; apart, one each.
      expect(r.text(`${a}${b}`)).toBe('[REDACTED]');
      expect(r.text(`${a} ${b}`)).toBe('[REDACTED] [REDACTED]');
      expect(r.value({ [`k ${a}XYZ-secret`]: `v ${a}XYZ-secret` })).toEqual({ 'k [REDACTED]': 'v [REDACTED]' });
    }
  });

  it('hides the longer secret starting first and a shorter one reaching past its end alike', () => {
    const r = redaction(['xyz-long-secret-9', 'secret-9end']);
    expect(r.text('(xyz-long-secret-9end)')).toBe('([REDACTED])');
    // One inside the other is the longer one's marker only.
    expect(r.text('(xyz-long-secret-9)')).toBe('([REDACTED])');
  });

  it('hides a secret overlapping itself and two encoded forms that overlap', () => {
    expect(redaction(['abab-abab']).text('xabab-abab-ababy')).toBe('x[REDACTED]y');
    const slash = redaction(['tok/en-1234', 'en-1234/more']);
    expect(slash.text(`tok%2Fen-1234%2Fmore`)).toBe('[REDACTED]');
  });

  it('hides overlapping secrets among hundreds (the one-scan search)', () => {
    const many = Array.from({ length: 300 }, (_, i) => `sk-${String(i).padStart(4, '0')}-Zq8w`);
    const r = redaction([...many, a, b]);
    expect(r.text(`x ${a}XYZ-secret ${many[7]}${many[8]} y`)).toBe('x [REDACTED] [REDACTED] y');
  });
});

describe('redaction: secrets inside Errors, Maps, Sets and other objects of a value', () => {
  const key = 'sk-live-Zq8w-1234';
  const secrets = redaction([key]);

  it("redacts an Error's message, stack, cause and own fields, keeping its class and name", () => {
    class ProviderError extends Error {
      constructor(
        message: string,
        readonly code: string,
      ) {
        super(message, { cause: new Error(`token ${key} refused`) });
        this.name = 'ProviderError';
      }
    }
    const err = new ProviderError(`401 for key ${key}`, `E_${key}`);
    const out = secrets.value({ error: err, at: 'call' });
    expect(out).toEqual({ error: expect.any(ProviderError), at: 'call' });
    const shown = (out as { error: ProviderError }).error;
    expect(shown).not.toBe(err);
    expect(shown.name).toBe('ProviderError');
    expect(shown.message).toBe('401 for key [REDACTED]');
    expect(shown.stack).toContain('ProviderError: 401 for key [REDACTED]');
    expect(shown.stack).not.toContain(key);
    expect(shown.code).toBe('E_[REDACTED]');
    expect(shown.cause).toBeInstanceOf(Error);
    expect((shown.cause as Error).message).toBe('token [REDACTED] refused');
    // The original is left as it was.
    expect(err.message).toBe(`401 for key ${key}`);
    // An Error alone, and one whose cause loops back to itself.
    const looping = new Error(`bad ${key}`);
    looping.cause = looping;
    const copy = secrets.value(looping) as Error;
    expect(copy.message).toBe('bad [REDACTED]');
    expect(copy.cause).toBe('[Circular]');
  });

  it('redacts the entries of a Map and a Set, never merging two Map keys', () => {
    const map = new Map<unknown, unknown>([
      [key, 1],
      [key.toLowerCase(), 2],
      [3, `v ${key}`],
    ]);
    const out = secrets.value({ map, set: new Set([`a ${key}`, 'b']) }) as { map: Map<unknown, unknown>; set: Set<unknown> };
    expect(out.map).toEqual(
      new Map<unknown, unknown>([
        ['[REDACTED]', 1],
        ['[REDACTED] (2)', 2],
        [3, 'v [REDACTED]'],
      ]),
    );
    expect(out.set).toEqual(new Set(['a [REDACTED]', 'b']));
  });

  it('keeps a Date and binary data as they are, and shows an object with toJSON (a URL) as its JSON, redacted', () => {
    const when = new Date('2026-01-02T03:04:05Z');
    const bytes = new TextEncoder().encode('binary');
    const out = secrets.value({ when, bytes, url: new URL(`https://api.example/x?key=${key}`), note: key }) as Record<string, unknown>;
    expect(out).toEqual({ when, bytes, url: 'https://api.example/x?key=[REDACTED]', note: '[REDACTED]' });
    expect(out.when).toBe(when);
    expect(out.bytes).toBe(bytes);
    // Nothing to hide: the very value back.
    const clean = { when, err: new Error('fine'), map: new Map([['k', 'v']]) };
    expect(secrets.value(clean)).toBe(clean);
  });
});
