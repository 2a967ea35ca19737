import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withEnvSecrets } from './hookSecrets.js';
import { verifyWebhook, type WebhookRequest } from './verify.js';

const env = { HOOK_TOKEN: 'from-env-7f3a', GH_SECRET: 'gh-env-secret', EMPTY: '' };

function bearer(token: string): WebhookRequest {
  return { method: 'POST', headers: { authorization: `Bearer ${token}` }, query: {}, rawBody: Buffer.from('{}'), body: {} };
}

function github(secret: string, body = '{"zen":"x"}'): WebhookRequest {
  const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  return { method: 'POST', headers: { 'x-hub-signature-256': signature, 'x-github-delivery': 'd-1' }, query: {}, rawBody: Buffer.from(body), body: JSON.parse(body) };
}

async function verdict(provider: string, written: string, call: WebhookRequest) {
  const hook = await withEnvSecrets({ secret: written, verifyToken: written }, async () => env);
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

  it('leaves an unknown key as written (the spec rule), and an empty value too: never no secret at all', async () => {
    expect(await verdict('generic', '{{NO_SUCH_KEY}}', bearer('{{NO_SUCH_KEY}}'))).toBe('run');
    expect(await verdict('generic', '{{NO_SUCH_KEY}}', bearer(''))).toBe('refused');
    expect(await verdict('generic', '{{EMPTY}}', bearer(''))).toBe('refused');
    expect(await verdict('generic', '{{EMPTY}}', bearer('{{EMPTY}}'))).toBe('run');
  });

  it('asks for the environment only when the secret or verify token holds a reference', async () => {
    let asked = 0;
    const environment = async () => {
      asked += 1;
      return env;
    };
    const plain = { secret: 'plain', verifyToken: 'plain', blockId: 'b' };
    expect(await withEnvSecrets(plain, environment)).toBe(plain);
    expect(await withEnvSecrets({ secret: '', verifyToken: '{{ spaced }}' }, environment)).toEqual({ secret: '', verifyToken: '{{ spaced }}' });
    expect(asked).toBe(0);
    expect(await withEnvSecrets({ secret: 's', verifyToken: '{{HOOK_TOKEN}}', blockId: 'b' }, environment)).toEqual({ secret: 's', verifyToken: 'from-env-7f3a', blockId: 'b' });
    expect(asked).toBe(1);
  });
});
