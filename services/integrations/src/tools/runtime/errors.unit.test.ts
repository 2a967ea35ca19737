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
