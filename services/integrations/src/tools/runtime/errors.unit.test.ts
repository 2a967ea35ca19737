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

  it('finds it lower-cased, and inside the strings and keys of a value, keeping its shape', () => {
    expect(redact('a header echoed as tok-abcd-xyz', redaction(['Tok-ABCD-xyz']))).toBe('a header echoed as [REDACTED]');
    const value = { data: { url: `/x?k=${encodeURIComponent(SECRET)}`, n: 1, [SECRET]: [`form ${new URLSearchParams({ k: SECRET })}`] }, ok: false };
    expect(redactValue(value, secrets)).toEqual({ data: { url: '/x?k=[REDACTED]', n: 1, '[REDACTED]': ['form k=[REDACTED]'] }, ok: false });
    const clean = { data: 'nothing here' };
    expect(redactValue(clean, secrets)).toBe(clean);
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
