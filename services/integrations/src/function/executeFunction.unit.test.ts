import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeServer, type FakeServer } from '@weft/testkit';
import { executeFunctionRequest, resolveFunctionCode } from './executeFunction.js';
import { SandboxPool } from './sandbox.js';

const pool = new SandboxPool({ size: 1, policy: { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] } });
let server: FakeServer;
beforeAll(async () => {
  server = await createFakeServer();
});
afterAll(async () => {
  await Promise.all([pool.close(), server.close()]);
});

const SECRET = 'sk-fn-0123456789abcdef';

describe('function execute hides the environment values it was given (as the tool runtime does for tool results)', () => {
  it('a result, stdout and key that carry the value show [REDACTED]; the code computed with the real value', async () => {
    const res = await executeFunctionRequest(pool, {
      code: 'console.log("key is {{API_KEY}}"); return { echoed: {{API_KEY}}, len: {{API_KEY}}.length, nested: ["Bearer " + {{API_KEY}}], ["{{API_KEY}}"]: 1 }',
      envVars: { API_KEY: SECRET },
    });
    expect(res).toEqual({
      success: true,
      output: { result: { echoed: '[REDACTED]', len: SECRET.length, nested: ['Bearer [REDACTED]'], '[REDACTED]': 1 }, stdout: 'key is [REDACTED]\n' },
    });
  });

  it('an error and its stack that quote the value show [REDACTED]', async () => {
    const res = await executeFunctionRequest(pool, { code: 'throw new Error("refused " + {{API_KEY}})', envVars: { API_KEY: SECRET } });
    expect(res.success).toBe(false);
    expect(res.error).toContain('refused [REDACTED]');
    expect(JSON.stringify(res)).not.toContain(SECRET);
  });

  it('values shorter than 4 characters and results without a value are left as they are', async () => {
    expect(await executeFunctionRequest(pool, { code: 'return "{{K}}" + "-" + {{OTHER}}', envVars: { K: 'abc', OTHER: 'unused-value' } })).toMatchObject({
      output: { result: 'abc-[REDACTED]' },
    });
    expect(await executeFunctionRequest(pool, { code: 'return {n: 1}', envVars: { K: 'abcdef' } })).toMatchObject({ output: { result: { n: 1 } } });
  });

  it('the value lower-cased or percent-encoded (as a URL or query the code built carries it) shows [REDACTED] too', async () => {
    const secret = 'Sk-Fn/0123 abc+DEF=';
    const res = await executeFunctionRequest(pool, {
      code: 'const k = {{API_KEY}}; console.log(k.toLowerCase()); return { url: "https://api.example/?key=" + encodeURIComponent(k), form: "key=" + encodeURIComponent(k).replace(/%20/g, "+"), lower: k.toLowerCase() }',
      envVars: { API_KEY: secret },
    });
    expect(res).toEqual({
      success: true,
      output: { result: { url: 'https://api.example/?key=[REDACTED]', form: 'key=[REDACTED]', lower: '[REDACTED]' }, stdout: '[REDACTED]\n' },
    });
  });

  it('a fetch sends the real value; what the code returns of the answer shows [REDACTED]', async () => {
    server.on('GET', '/whoami', (req) => ({ json: { auth: req.headers.authorization } }));
    const res = await executeFunctionRequest(pool, {
      code: `const r = await fetch(${JSON.stringify(`${server.url}/whoami`)}, { headers: { Authorization: "Bearer {{API_KEY}}" } }); await new Promise((r) => setTimeout(r, 5)); return r.json()`,
      envVars: { API_KEY: SECRET },
    });
    expect(res).toEqual({ success: true, output: { result: { auth: 'Bearer [REDACTED]' }, stdout: '' } });
    expect(server.received('GET', '/whoami')[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
  });
});

describe('<block.path> in function code', () => {
  it('reads a block output by own fields only: an inherited member is a missing field, left as written', () => {
    const blockData = { fn: { result: { constructor: 'own', n: 2 }, list: [1, 2] }, agent: { content: 'hi' } };
    const code = 'return [<fn.result.n>, <fn.result.constructor>, <fn.list.length>, <agent.content.toString>, <agent.constructor>, <fn.result.hasOwnProperty>]';
    expect(resolveFunctionCode(code, {}, blockData, {})).toBe('return [2, "own", 2, <agent.content.toString>, <agent.constructor>, <fn.result.hasOwnProperty>]');
  });
});
