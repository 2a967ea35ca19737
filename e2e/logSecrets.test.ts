import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { api } from './support/http.js';
import { openStream, workflowWith } from './support/runStream.js';
import { answerOnce, receivedBy } from './support/serviceFakes.js';

/**
 * Issues 10/11 through the gateway: a run that uses a bot token typed into a password field and an
 * environment variable (in a child workflow's input, a loop's items, a function that echoes it) leaves
 * neither value in what can be read of it — the run's answer, the stored execution (the parent's and
 * the child's), the SSE stream — while the tool and the code got the real values; nor does a value a
 * service echoes percent-, form- or JSON-escaped.
 */

interface LogEntry {
  blockId: string;
  input?: unknown;
  output?: unknown;
}
interface Execution {
  status: string;
  input?: unknown;
  output?: unknown;
  logs?: LogEntry[];
}

const hex = () => randomBytes(8).toString('hex');
const fakeUrl = () => inject('serviceFakeUrls').messaging;

describe('secrets never show in what a run leaves to read', () => {
  it('a typed bot token and an environment value: the tool, the child and the loop get them; the answer, the stored executions and the stream show [REDACTED] or {{KEY}}', async () => {
    const typedToken = `777:typed-${hex()}`;
    const envValue = `env-secret-${hex()}`;
    expect((await api('POST', '/api/environment', { variables: { LOG_SECRET: envValue } })).status).toBe(200);

    const child = await workflowWith((starter) => [
      { type: 'addBlock', id: 'measure', blockType: 'function', name: 'Measure', position: { x: 400, y: 100 } },
      { type: 'setSubBlockValue', id: 'measure', subBlockId: 'code', value: 'return <start.input>.length' },
      { type: 'addEdge', source: starter, target: 'measure' },
    ]);
    const { id } = await workflowWith((starter) => [
      { type: 'addBlock', id: 'send', blockType: 'telegram', name: 'Send', position: { x: 300, y: 100 } },
      { type: 'setSubBlockValue', id: 'send', subBlockId: 'botToken', value: typedToken },
      { type: 'setSubBlockValue', id: 'send', subBlockId: 'chatId', value: '-100777' },
      { type: 'setSubBlockValue', id: 'send', subBlockId: 'text', value: 'hi' },
      { type: 'addEdge', source: starter, target: 'send' },
      { type: 'addBlock', id: 'echo', blockType: 'function', name: 'Echo', position: { x: 600, y: 100 } },
      { type: 'setSubBlockValue', id: 'echo', subBlockId: 'code', value: 'console.log("{{LOG_SECRET}}"); return { echoed: "{{LOG_SECRET}}", len: "{{LOG_SECRET}}".length }' },
      { type: 'addEdge', source: 'send', target: 'echo' },
      { type: 'addBlock', id: 'child', blockType: 'workflow', name: 'Child', position: { x: 900, y: 100 } },
      { type: 'setSubBlockValue', id: 'child', subBlockId: 'workflowId', value: child.id },
      { type: 'setSubBlockValue', id: 'child', subBlockId: 'input', value: '{{LOG_SECRET}}' },
      { type: 'addEdge', source: 'echo', target: 'child' },
      { type: 'addBlock', id: 'loop', blockType: 'loop', name: 'Loop', position: { x: 1200, y: 100 }, data: { loopType: 'forEach', collection: '["{{LOG_SECRET}}", "plain"]' } },
      { type: 'addEdge', source: 'child', target: 'loop' },
      { type: 'addBlock', id: 'item', blockType: 'function', name: 'Item', position: { x: 50, y: 50 }, parentId: 'loop' },
      { type: 'setSubBlockValue', id: 'item', subBlockId: 'code', value: 'return <loop.currentItem>.length' },
      { type: 'addEdge', source: 'loop', target: 'item', sourceHandle: 'loop-start-source' },
    ]);

    const before = (await receivedBy(fakeUrl())).length;
    const stream = await openStream(`/api/workflows/${id}/execute`, { method: 'POST', body: {} });
    expect(stream.status).toBe(200);
    const events = await stream.rest();
    const executionId = String(events[0]?.data.executionId);
    expect(events.at(-1)?.event, JSON.stringify(events.at(-1))).toBe('execution:completed');

    // The tool got the typed token (in Telegram's path); the code and the child computed with the value.
    const sent = (await receivedBy(fakeUrl())).slice(before).filter((r) => r.path === `/telegram/bot${typedToken}/sendMessage`);
    expect(sent).toHaveLength(1);
    const stored = await api<Execution>('GET', `/api/executions/${executionId}`);
    expect(stored.status).toBe(200);
    const logOf = (blockId: string) => stored.body.logs?.find((l) => l.blockId === blockId);
    expect(logOf('send')?.input).toMatchObject({ params: { botToken: '[REDACTED]' } });
    expect(logOf('echo')?.output).toEqual({ result: { echoed: '[REDACTED]', len: envValue.length }, stdout: '[REDACTED]\n' });
    expect(logOf('child')).toMatchObject({ input: { input: '{{LOG_SECRET}}' }, output: { success: true, result: { result: envValue.length } } });
    expect(logOf('loop')?.input).toEqual({ count: 2, items: ['{{LOG_SECRET}}', 'plain'] });
    expect(stored.body.output).toEqual({ results: [{ result: envValue.length, stdout: '' }, { result: 5, stdout: '' }] });

    const childRun = await api<Execution>('GET', `/api/executions/${executionId}-child`);
    expect(childRun.status).toBe(200);
    expect(childRun.body).toMatchObject({ status: 'succeeded', input: '{{LOG_SECRET}}', output: { result: envValue.length } });

    // A second run, answered whole (the API's synchronous answer).
    const answered = await api<{ success: boolean; logs: LogEntry[] }>('POST', `/api/workflows/${id}/execute`, {});
    expect(answered.body.success).toBe(true);

    for (const [what, text] of [
      ['the SSE stream', JSON.stringify(events)],
      ['the stored execution', JSON.stringify(stored.body)],
      ["the child's stored execution", JSON.stringify(childRun.body)],
      ['the synchronous answer', JSON.stringify(answered.body)],
    ] as const) {
      expect(text, what).not.toContain(typedToken);
      expect(text, what).not.toContain(envValue);
    }
  });

  it('an environment value a service echoes encoded (in a URL, a form body, ASCII-only JSON): the API block got the value; the answer and the stored execution show [REDACTED]', async () => {
    const envValue = `a b/c+d?é-${hex()}`;
    const forms = [envValue, encodeURIComponent(envValue), encodeURI(envValue), new URLSearchParams({ k: envValue }).toString().slice(2), JSON.stringify(envValue).slice(1, -1).replace('é', '\\u00e9')];
    expect((await api('POST', '/api/environment', { variables: { ENCODED_SECRET: envValue } })).status).toBe(200);
    const path = `/encoded-echo-${hex()}`;
    await answerOnce(fakeUrl(), 'GET', path, {
      json: { called: `${path}?api_key=${encodeURIComponent(envValue)}`, redirect: `https://app.example/cb#t=${encodeURI(envValue)}`, form: `api_key=${forms[3] ?? ''}`, quoted: `{"key":"${forms[4] ?? ''}"}` },
    });
    const { id } = await workflowWith((starter) => [
      { type: 'addBlock', id: 'call', blockType: 'api', name: 'Call', position: { x: 400, y: 100 } },
      { type: 'setSubBlockValue', id: 'call', subBlockId: 'url', value: `${fakeUrl()}${path}` },
      { type: 'setSubBlockValue', id: 'call', subBlockId: 'params', value: [{ id: 'p1', cells: { Key: 'api_key', Value: '{{ENCODED_SECRET}}' } }] },
      { type: 'addEdge', source: starter, target: 'call' },
    ]);
    const before = (await receivedBy(fakeUrl())).length;
    const answered = await api<{ success: boolean; metadata: { executionId: string }; logs: LogEntry[] }>('POST', `/api/workflows/${id}/execute`, {});
    expect(answered.body.success, JSON.stringify(answered.body)).toBe(true);
    // The service got the real value in its query.
    const got = (await receivedBy(fakeUrl())).slice(before).filter((r) => r.path === path);
    expect(got.map((r) => r.query.api_key)).toEqual([envValue]);
    const log = answered.body.logs.find((l) => l.blockId === 'call');
    expect(log?.output).toMatchObject({ data: { called: `${path}?api_key=[REDACTED]`, redirect: 'https://app.example/cb#t=[REDACTED]', form: 'api_key=[REDACTED]', quoted: '{"key":"[REDACTED]"}' } });
    const stored = await api<Execution>('GET', `/api/executions/${answered.body.metadata.executionId}`);
    expect(stored.status).toBe(200);
    for (const [what, text] of [
      ['the synchronous answer', JSON.stringify(answered.body)],
      ['the stored execution', JSON.stringify(stored.body)],
    ] as const) for (const form of forms) expect(text, what).not.toContain(JSON.stringify(form).slice(1, -1));
  });

  it("a webhook run called with its secret in the Authorization header: the stored execution's input and logs show Bearer [REDACTED]", async () => {
    const hookSecret = `whsec-${hex()}`;
    const path = `log-secrets-${hex()}`;
    const { id } = await workflowWith((starter) => [
      { type: 'setSubBlockValue', id: starter, subBlockId: 'startWorkflow', value: 'webhook' },
      { type: 'setSubBlockValue', id: starter, subBlockId: 'webhookPath', value: path },
      { type: 'setSubBlockValue', id: starter, subBlockId: 'webhookSecret', value: hookSecret },
      { type: 'addBlock', id: 'auth', blockType: 'function', name: 'Auth', position: { x: 400, y: 100 } },
      { type: 'setSubBlockValue', id: 'auth', subBlockId: 'code', value: 'return <start.input.headers.authorization>' },
      { type: 'addEdge', source: starter, target: 'auth' },
    ]);
    const deployed = await api('POST', `/api/workflows/${id}/deploy`, {});
    expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
    const called = await fetch(`${inject('weftUrl')}/api/webhooks/trigger/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${hookSecret}` },
      body: JSON.stringify({ n: 1 }),
    });
    expect(called.status).toBe(200);
    const { executionId } = (await called.json()) as { executionId: string };
    let run: Execution | undefined;
    await expect
      .poll(async () => (run = (await api<Execution>('GET', `/api/executions/${executionId}`)).body).status, { timeout: 60_000, interval: 100 })
      .toBe('succeeded');
    expect(run?.output).toEqual({ result: 'Bearer [REDACTED]', stdout: '' });
    expect(run?.input).toMatchObject({ headers: { authorization: 'Bearer [REDACTED]' } });
    expect(JSON.stringify(run)).not.toContain(hookSecret);
    expect((await api('DELETE', `/api/workflows/${id}/deploy`)).status).toBe(200);
  });
});
