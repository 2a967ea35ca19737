/**
 * A model block's tries through the stack: the stack's OpenAI fake (e2e/support/modelFake.ts) answers
 * a scripted 503 and then an answer, behind the real integrations worker's model activities; the
 * runner's workflow tries the call again and the log, answered and stored, shows each try.
 */
import { describe, expect, it } from 'vitest';
import { uniqueSuffix } from '@weft/testkit';
import { api } from './support/http.js';
import { oneBlock, workflowWith } from './support/runStream.js';
import { modelChats, scriptModel } from './support/modelScripts.js';

interface Try {
  attempt: number;
  startedAt: string;
  durationMs: number;
  error?: string;
  call?: number;
}
interface Log {
  blockId: string;
  success: boolean;
  error?: string;
  attempts?: number;
  attemptLog?: Try[];
  output?: unknown;
}
interface RunAnswer {
  success: boolean;
  error?: string;
  logs: Log[];
  metadata: { executionId: string };
}

/** Chat requests the fake received whose messages carry `marker`. */
async function chatsWith(marker: string): Promise<number> {
  const chats = await modelChats<{ body: unknown }>();
  return chats.filter((c) => JSON.stringify(c.body).includes(marker)).length;
}

async function runLogged(id: string): Promise<{ answer: RunAnswer; log: Log | undefined; stored: Log | undefined }> {
  const res = await api<RunAnswer>('POST', `/api/workflows/${id}/execute`, {});
  expect(res.status).toBe(200);
  const stored = await api<{ logs: Log[] }>('GET', `/api/executions/${res.body.metadata.executionId}`);
  return { answer: res.body, log: res.body.logs.find((l) => l.blockId === 'm'), stored: stored.body.logs.find((l) => l.blockId === 'm') };
}

describe('model block tries through the stack', () => {
  it('a translate block whose provider answers 503 then its answer succeeds on the second try, each try in the log; a 400 is not tried again', async () => {
    const marker = `retry-${uniqueSuffix()}`;
    await scriptModel(marker, [{ error: { status: 503, message: 'The server is overloaded' } }, { content: 'Hallo' }]);
    const { id } = await workflowWith(oneBlock('m', 'translate', 'Translate', { context: `Bonjour ${marker}`, targetLanguage: 'German', model: 'gpt-4o', apiKey: 'sk-e2e' }));
    const { answer, log, stored } = await runLogged(id);
    expect(answer.success).toBe(true);
    expect(log).toMatchObject({ success: true, attempts: 2, output: { content: 'Hallo' } });
    const tries = [
      { attempt: 1, startedAt: expect.any(String) as string, durationMs: expect.any(Number) as number, error: expect.stringContaining('overloaded') as string },
      { attempt: 2, startedAt: expect.any(String) as string, durationMs: expect.any(Number) as number },
    ];
    expect(log?.attemptLog).toEqual(tries);
    expect(stored?.attemptLog).toEqual(tries);
    expect(await chatsWith(marker)).toBe(2);

    const answered = `answered-${uniqueSuffix()}`;
    await scriptModel(answered, [{ error: { status: 400, message: "Invalid value for 'temperature'" } }]);
    const bad = await workflowWith(oneBlock('m', 'translate', 'Translate', { context: `Bonjour ${answered}`, targetLanguage: 'German', model: 'gpt-4o', apiKey: 'sk-e2e' }));
    const failed = await runLogged(bad.id);
    expect(failed.answer).toMatchObject({ success: false, error: expect.stringContaining("Invalid value for 'temperature'") as string });
    expect(failed.log).toMatchObject({ success: false, attempts: 1 });
    expect(failed.log).not.toHaveProperty('attemptLog');
    expect(await chatsWith(answered)).toBe(1);
  });

  it('an agent whose model call answers 503 first: the agent log lists the tries of that call', async () => {
    const marker = `agent-retry-${uniqueSuffix()}`;
    await scriptModel(marker, [{ error: { status: 503, message: 'The server is overloaded' } }, { content: 'Done.' }]);
    const { id } = await workflowWith(oneBlock('m', 'agent', 'Agent', { model: 'gpt-4o', userPrompt: `Say done ${marker}`, apiKey: 'sk-e2e' }));
    const { answer, log, stored } = await runLogged(id);
    expect(answer.success).toBe(true);
    expect(log).toMatchObject({ success: true, attempts: 2, output: { content: 'Done.' } });
    expect(log?.attemptLog?.map((t) => [t.call, t.attempt, t.error === undefined ? undefined : t.error.includes('overloaded')])).toEqual([
      [1, 1, true],
      [1, 2, undefined],
    ]);
    expect(stored?.attemptLog).toEqual(log?.attemptLog);
    expect(await chatsWith(marker)).toBe(2);
  });
});
