import { describe, expect, it } from 'vitest';
import { logMasks, maskEnvText, maskEnvValues, maskLogText, maskLogValue, maskSecretFields, SECRET_MASK, secretValues, stateSecrets } from './logMasking.js';

describe('maskSecretFields: what a block log shows of its password fields', () => {
  it("masks the catalogue's password fields typed in or filled from a block; blank and {{KEY}}-only values stay as written", () => {
    expect(maskSecretFields('email', { to: 'a@b.test', password: 'hunter22', username: 'me' })).toEqual({ to: 'a@b.test', password: SECRET_MASK, username: 'me' });
    expect(maskSecretFields('telegram', { botToken: '<secrets.token>' })).toEqual({ botToken: SECRET_MASK });
    expect(maskSecretFields('serper', { apiKey: '{{SERPER_KEY}}' })).toEqual({ apiKey: '{{SERPER_KEY}}' });
    expect(maskSecretFields('serper', { apiKey: ' {{A}} {{B}} ' })).toEqual({ apiKey: ' {{A}} {{B}} ' });
    expect(maskSecretFields('serper', { apiKey: 'Bearer {{A}}' })).toEqual({ apiKey: SECRET_MASK });
    expect(maskSecretFields('serper', { apiKey: '' })).toEqual({ apiKey: '' });
    expect(maskSecretFields('s3', { accessKeyId: 'AKIA1234', secretAccessKey: 'abcd/efgh' })).toEqual({ accessKeyId: SECRET_MASK, secretAccessKey: SECRET_MASK });
  });

  it("masks model blocks' API keys and an agent's tools by their own block types", () => {
    const values = { model: 'gpt-4o', apiKey: 'sk-typed', tools: [{ type: 'slack', params: { botToken: 'xoxb-1', channel: 'C1' } }, { type: 'custom-tool', schema: {} }] };
    expect(maskSecretFields('agent', values)).toEqual({
      model: 'gpt-4o',
      apiKey: SECRET_MASK,
      tools: [{ type: 'slack', params: { botToken: SECRET_MASK, channel: 'C1' } }, { type: 'custom-tool', schema: {} }],
    });
  });

  it("masks a webhook trigger's secret, token, signing secret and verify token", () => {
    const config = { path: 'gh', secret: 's3cret', token: 'tok', signingSecret: 'sig', verifyToken: 'v', responseMode: 'immediate' };
    expect(maskSecretFields('webhook', { webhookProvider: 'github', webhookConfig: config })).toEqual({
      webhookProvider: 'github',
      webhookConfig: { path: 'gh', secret: SECRET_MASK, token: SECRET_MASK, signingSecret: SECRET_MASK, verifyToken: SECRET_MASK, responseMode: 'immediate' },
    });
  });

  it('leaves blocks without secret fields and unknown types as they are', () => {
    const values = { code: 'return 1' };
    expect(maskSecretFields('function', values)).toBe(values);
    expect(maskSecretFields('no-such-block', values)).toBe(values);
  });
});

describe('maskEnvValues / maskEnvText: environment values in log values become {{KEY}}', () => {
  const env = { TOKEN: 'tok-1234', LONGER: 'tok-1234-extended', QUOTED: 'a"b\\c\nd', SHORT: 'ab' };

  it('replaces values inside strings and keys at any depth, the longer value first; leaves short values alone', () => {
    const value = { a: ['x tok-1234-extended y', { 'tok-1234': 'Bearer tok-1234' }], n: 5, s: 'ab' };
    expect(maskEnvValues(value, env, true)).toEqual({ a: ['x {{LONGER}} y', { '{{TOKEN}}': 'Bearer {{TOKEN}}' }], n: 5, s: 'ab' });
  });

  it('finds values with characters JSON escapes', () => {
    expect(maskEnvValues({ out: 'see a"b\\c\nd here' }, env, true)).toEqual({ out: 'see {{QUOTED}} here' });
  });

  it('answers the value itself when no environment value is in it', () => {
    const value = { a: 'nothing here' };
    expect(maskEnvValues(value, env, true)).toBe(value);
    expect(maskEnvValues(undefined, env, true)).toBeUndefined();
  });

  it('masks error texts', () => {
    expect(maskEnvText('401 for key tok-1234', env, true)).toBe('401 for key {{TOKEN}}');
  });

  it('never merges keys masked alike, and leaves words that only share a short value lower-cased alone (ENV=Prod, REGION=EU-WEST-1)', () => {
    const masks = logMasks({ ENV: 'Prod', REGION: 'EU-WEST-1', FLAG: 'Data' });
    expect(maskLogText('Production eu-west-1 in EU-WEST-1 / Prod', masks)).toBe('{{ENV}}uction eu-west-1 in {{REGION}} / {{ENV}}');
    expect(maskLogText('production runs in eu-west-1', masks)).toBe('production runs in eu-west-1');
    expect(maskLogValue({ items: { data: [1], Data: [2] }, note: 'Data here' }, masks)).toEqual({ items: { data: [1], '{{FLAG}}': [2] }, note: '{{FLAG}} here' });
    expect(maskLogValue({ Prod: 1, '{{ENV}}': 2, 'Prod ': 3 }, masks)).toEqual({ '{{ENV}} (2)': 1, '{{ENV}}': 2, '{{ENV}} ': 3 });
    // A long random-looking value is still found lower-cased.
    expect(maskLogText('echoed sk-abcd1234efgh', logMasks({ KEY: 'sk-ABCD1234efgh' }))).toBe('echoed {{KEY}}');
  });

  it('without allForms (a run recorded before patch secret-forms) masks exact texts only, and keys masked alike merge, as those runs did', () => {
    const value = { a: ['x tok-1234-extended y', { 'tok-1234': 'Bearer tok-1234' }], url: `k=${encodeURIComponent('a"b\\c\nd')}` };
    expect(maskEnvValues(value, env, false)).toEqual({ a: ['x {{LONGER}} y', { '{{TOKEN}}': 'Bearer {{TOKEN}}' }], url: value.url });
    const old = logMasks({ KEY: 'sk-ABCD1234efgh' }, ['a b/c'], false);
    expect(old).toEqual({ pairs: [['sk-ABCD1234efgh', '{{KEY}}'], ['a b/c', SECRET_MASK]], mergeKeys: true, whole: false });
    expect(maskLogValue({ 'sk-ABCD1234efgh': 1, '{{KEY}}': 2 }, old)).toEqual({ '{{KEY}}': 2 });
    expect(maskLogText('sk-abcd1234efgh a%20b%2Fc', old)).toBe('sk-abcd1234efgh a%20b%2Fc');
  });
});

describe("secretValues / logMasks: a block's own secrets, wherever they show", () => {
  it("lists the resolved password fields, an agent's tools' and a webhook's secrets", () => {
    expect(secretValues('agent', { apiKey: 'sk-a', tools: [{ type: 'slack', params: { botToken: 'xoxb-1' } }] })).toEqual(['sk-a', 'xoxb-1']);
    expect(secretValues('webhook', { webhookConfig: { path: 'p', secret: 'whsec' } })).toEqual(['whsec']);
    expect(secretValues('function', { code: 'x' })).toEqual([]);
  });

  it('masks them as [REDACTED] and environment values as {{KEY}}, the longer text first', () => {
    const masks = logMasks({ KEY: 'env-value' }, ['typed-key', 'typed-key-longer']);
    expect(maskLogValue({ e: 'typed-key-longer / typed-key / env-value' }, masks)).toEqual({ e: `${SECRET_MASK} / ${SECRET_MASK} / {{KEY}}` });
  });

  it('finds them percent-, form- and JSON-escaped too (a URL, a form body or a JSON text an output or error echoes)', () => {
    const env = 'a b/c+d?é';
    const masks = logMasks({ API_KEY: env }, ['Typed Key+1']);
    const url = `https://api.example/x?api_key=${encodeURIComponent(env)}&typed=${encodeURIComponent('Typed Key+1')}`;
    expect(maskLogText(`GET ${url} failed`, masks)).toBe(`GET https://api.example/x?api_key={{API_KEY}}&typed=${SECRET_MASK} failed`);
    const form = new URLSearchParams({ k: env, t: 'Typed Key+1' }).toString();
    expect(maskLogValue({ echoed: form, ascii: '{"k":"a b/c+d?\\u00e9"}' }, masks)).toEqual({ echoed: `k={{API_KEY}}&t=${SECRET_MASK}`, ascii: '{"k":"{{API_KEY}}"}' });
  });
});

describe("stateSecrets: what was typed into a workflow's secret fields", () => {
  it('lists typed values, not references', () => {
    const block = (type: string, values: Record<string, unknown>) => ({ type, subBlocks: Object.fromEntries(Object.entries(values).map(([k, value]) => [k, { value }])) });
    const state = {
      blocks: {
        s: block('starter', { webhookSecret: 'typed-hook-secret' }),
        a: block('serper', { apiKey: '{{SERPER}}' }),
        b: block('telegram', { botToken: '<secrets.token>' }),
        c: block('email', { password: 'typed-smtp' }),
      },
    };
    expect(stateSecrets(state)).toEqual(['typed-hook-secret', 'typed-smtp']);
  });
});

describe('logMasks: texts that overlap (patch secret-overlap)', () => {
  const env = { KEY_A: 'abcdef12345', KEY_B: '12345XYZ-secret' };

  it('masks two overlapping values whole, each marker once, in order; touching ones keep a marker each', () => {
    const masks = logMasks(env, ['typed-secret-9']);
    expect(masks.whole).toBe(true);
    expect(maskLogText('key: abcdef12345XYZ-secret!', masks)).toBe('key: {{KEY_A}}{{KEY_B}}!');
    expect(maskLogText('abcdef12345 12345XYZ-secret abcdef1234512345XYZ-secret', masks)).toBe('{{KEY_A}} {{KEY_B}} {{KEY_A}}{{KEY_B}}');
    expect(maskLogText('typed-secret-9XYZ-secret', logMasks({ B: 'secret-9XYZ' }, ['typed-secret-9']))).toBe(`${SECRET_MASK}{{B}}-secret`);
    expect(maskLogValue({ 'k abcdef12345XYZ-secret': ['v abcdef12345XYZ-secret'] }, masks)).toEqual({ 'k {{KEY_A}}{{KEY_B}}': ['v {{KEY_A}}{{KEY_B}}'] });
    expect(maskEnvText('abab-abab-abab', { K: 'abab-abab' }, true)).toBe('{{K}}');
    expect(maskEnvValues({ e: 'abcdef12345XYZ-secret' }, env, true)).toEqual({ e: '{{KEY_A}}{{KEY_B}}' });
  });

  it('runs recorded before the patch keep the longest-first replacement, tail and all', () => {
    const before = logMasks(env, [], true, false);
    expect(before.whole).toBe(false);
    expect(maskLogText('key: abcdef12345XYZ-secret!', before)).toBe('key: abcdef{{KEY_B}}!');
    expect(maskEnvText('abab-abab-abab', { K: 'abab-abab' }, true, false)).toBe('{{K}}-abab');
    expect(logMasks(env, [], false).whole).toBe(false);
  });
});
