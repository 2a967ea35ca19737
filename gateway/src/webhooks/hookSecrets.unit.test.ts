import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createHookSecretCache, withEnvSecrets } from './hookSecrets.js';
import { verifyWebhook, type WebhookRequest } from './verify.js';

const env = { HOOK_TOKEN: 'from-env-7f3a', GH_SECRET: 'gh-env-secret', K1: 'first-', EMPTY: '' };

function bearer(token: string): WebhookRequest {
  return { method: 'POST', headers: { authorization: `Bearer ${token}` }, query: {}, rawBody: Buffer.from('{}'), body: {} };
}

function github(secret: string, body = '{"zen":"x"}'): WebhookRequest {
  const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  return { method: 'POST', headers: { 'x-hub-signature-256': signature, 'x-github-delivery': 'd-1' }, query: {}, rawBody: Buffer.from(body), body: JSON.parse(body) };
}

async function verdict(provider: string, written: string, call: WebhookRequest) {
  const { hook } = await withEnvSecrets({ secret: written, verifyToken: written }, async () => env);
  return verifyWebhook(call, { provider, secret: hook.secret, verifyToken: hook.verifyToken }).kind;
}

describe("a webhook secret written as {{KEY}} is the acting user's environment value", () => {
  it('accepts the environment value and refuses the reference as typed', async () => {
    expect(await verdict('generic', '{{HOOK_TOKEN}}', bearer('from-env-7f3a'))).toBe('run');
    expect(await verdict('generic', '{{HOOK_TOKEN}}', bearer('{{HOOK_TOKEN}}'))).toBe('refused');
  });

  it('signs with the environment value (GitHub HMAC), and fills a reference inside a longer secret', async () => {
    expect(await verdict('github', '{{GH_SECRET}}', github('gh-env-secret'))).toBe('run');
    expect(await verdict('github', '{{GH_SECRET}}', github('{{GH_SECRET}}'))).toBe('refused');
    expect(await verdict('generic', 'pre-{{HOOK_TOKEN}}', bearer('pre-from-env-7f3a'))).toBe('run');
  });

  it('fails closed on an unknown key or an empty value: the reference as typed, no secret, a half-filled one are all refused', async () => {
    for (const token of ['{{NO_SUCH_KEY}}', '', 'NO_SUCH_KEY']) expect(await verdict('generic', '{{NO_SUCH_KEY}}', bearer(token))).toBe('refused');
    for (const token of ['{{EMPTY}}', '']) expect(await verdict('generic', '{{EMPTY}}', bearer(token))).toBe('refused');
    for (const token of ['first-{{K2}}', 'first-', '{{K1}}{{K2}}']) expect(await verdict('generic', '{{K1}}{{K2}}', bearer(token))).toBe('refused');
    expect(await verdict('github', '{{NO_SUCH_KEY}}', github('{{NO_SUCH_KEY}}'))).toBe('refused');
  });

  it('names the keys it could not fill (never a value), in the secret or the verify token, and fills nothing then', async () => {
    const resolved = await withEnvSecrets({ secret: '{{K1}}{{K2}}', verifyToken: '{{EMPTY}}-{{HOOK_TOKEN}}' }, async () => env);
    expect(resolved.missing.sort()).toEqual(['EMPTY', 'K2']);
    expect(resolved.hook.secret).not.toContain('first-');
    expect(resolved.hook.verifyToken).not.toContain('from-env-7f3a');
    expect(resolved.hook.secret).not.toBe('');
    expect((await withEnvSecrets({ secret: '', verifyToken: '{{NOPE}}' }, async () => env)).hook.secret).not.toBe('');
    expect((await withEnvSecrets({ secret: '{{K1}}x', verifyToken: '' }, async () => env)).missing).toEqual([]);
  });

  it('asks for the environment only when the secret or verify token holds a reference', async () => {
    let asked = 0;
    const environment = async () => {
      asked += 1;
      return env;
    };
    const plain = { secret: 'plain', verifyToken: 'plain', blockId: 'b' };
    expect((await withEnvSecrets(plain, environment)).hook).toBe(plain);
    expect(await withEnvSecrets({ secret: '', verifyToken: '{{ spaced }}' }, environment)).toEqual({ hook: { secret: '', verifyToken: '{{ spaced }}' }, missing: [] });
    expect(asked).toBe(0);
    expect(await withEnvSecrets({ secret: 's', verifyToken: '{{HOOK_TOKEN}}', blockId: 'b' }, environment)).toEqual({ hook: { secret: 's', verifyToken: 'from-env-7f3a', blockId: 'b' }, missing: [] });
    expect(asked).toBe(1);
  });
});

describe('resolved hook secrets are kept a short while', () => {
  function counting(values: Record<string, string>) {
    const state = { asked: 0, values, fail: false };
    const environment = async () => {
      state.asked += 1;
      if (state.fail) throw new Error('registry unavailable');
      return state.values;
    };
    return { state, environment };
  }

  it('asks the environment once per TTL for a hook, and applies a change after the TTL', async () => {
    let now = 0;
    const cache = createHookSecretCache({ ttlMs: 30_000, now: () => now });
    const { state, environment } = counting({ HOOK_TOKEN: 'v1' });
    const hook = { secret: '{{HOOK_TOKEN}}', verifyToken: '', blockId: 'b' };
    const a = await cache.resolve('wf|actor', hook, environment);
    const b = await cache.resolve('wf|actor', hook, environment);
    expect([a.hook.secret, b.hook.secret, state.asked]).toEqual(['v1', 'v1', 1]);
    state.values = { HOOK_TOKEN: 'v2' };
    now = 29_999;
    expect((await cache.resolve('wf|actor', hook, environment)).hook).toEqual({ secret: 'v1', verifyToken: '', blockId: 'b' });
    expect(state.asked).toBe(1);
    now = 30_000;
    expect((await cache.resolve('wf|actor', hook, environment)).hook.secret).toBe('v2');
    expect(state.asked).toBe(2);
  });

  it('keeps hooks apart by key and by the secret as written, keeps a missing key as refused, and keeps no failure', async () => {
    const cache = createHookSecretCache({ now: () => 0 });
    const { state, environment } = counting({ A: 'a-value' });
    expect((await cache.resolve('wf|one', { secret: '{{A}}', verifyToken: '' }, environment)).hook.secret).toBe('a-value');
    expect((await cache.resolve('wf|two', { secret: '{{A}}', verifyToken: '' }, environment)).hook.secret).toBe('a-value');
    expect((await cache.resolve('wf|one', { secret: '{{B}}', verifyToken: '' }, environment)).missing).toEqual(['B']);
    expect((await cache.resolve('wf|one', { secret: '{{B}}', verifyToken: '' }, environment)).missing).toEqual(['B']);
    expect(state.asked).toBe(3);
    state.fail = true;
    await expect(cache.resolve('wf|three', { secret: '{{A}}', verifyToken: '' }, environment)).rejects.toThrow('registry unavailable');
    state.fail = false;
    expect((await cache.resolve('wf|three', { secret: '{{A}}', verifyToken: '' }, environment)).hook.secret).toBe('a-value');
    expect(state.asked).toBe(5);
    expect((await cache.resolve('wf|plain', { secret: 'plain', verifyToken: '' }, environment)).hook.secret).toBe('plain');
    expect(state.asked).toBe(5);
  });

  it('asks once for simultaneous calls of one hook; a failed question fails them all and is not kept', async () => {
    const cache = createHookSecretCache({ now: () => 0 });
    /** Each question the cache asks, unanswered until the test answers it. */
    const questions: Array<{ resolve: (values: Record<string, string>) => void; reject: (err: Error) => void }> = [];
    const environment = () => new Promise<Record<string, string>>((resolve, reject) => void questions.push({ resolve, reject }));
    const hook = { secret: '{{HOOK_TOKEN}}', verifyToken: '' };
    const burst = [1, 2, 3].map(() => cache.resolve('wf|burst', hook, environment));
    expect(questions).toHaveLength(1);
    // Another hook (another key, or another secret as written) asks its own question.
    const others = [cache.resolve('wf|other', hook, environment), cache.resolve('wf|burst', { secret: '{{GH_SECRET}}', verifyToken: '' }, environment)];
    expect(questions).toHaveLength(3);
    questions[0]?.reject(new Error('registry unavailable'));
    for (const call of burst) await expect(call).rejects.toThrow('registry unavailable');
    questions[1]?.resolve({ HOOK_TOKEN: 'other-value' });
    questions[2]?.resolve({ GH_SECRET: 'gh' });
    expect((await Promise.all(others)).map((r) => r.hook.secret)).toEqual(['other-value', 'gh']);
    // The failure was not kept: the next burst asks again, once, and every call gets the answer, which is then kept.
    const retried = [1, 2, 3].map(() => cache.resolve('wf|burst', hook, environment));
    expect(questions).toHaveLength(4);
    questions[3]?.resolve({ HOOK_TOKEN: 'v1' });
    expect((await Promise.all(retried)).map((r) => r.hook.secret)).toEqual(['v1', 'v1', 'v1']);
    expect((await cache.resolve('wf|burst', hook, environment)).hook.secret).toBe('v1');
    expect(questions).toHaveLength(4);
  });
});
