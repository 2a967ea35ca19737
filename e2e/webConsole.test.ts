import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { createFakeServer, type FakeServer } from '@weft/testkit';
import { chromiumPerSuite } from './support/browser.js';
import { api } from './support/http.js';
import { releaseModel, scriptModel } from './support/modelScripts.js';
import { consoleOf, entryStatus, runState, runStatus } from './support/runConsole.js';
import { untilEnded } from './support/runs.js';
import { newWorkflow } from './support/workflows.js';

/** A function block that fetches `url` and answers its JSON: it runs as long as the server takes to answer. */
const fetching = (id: string, name: string, url: string, x: number, y = 0) => [
  { type: 'addBlock', id, blockType: 'function', name, position: { x, y } },
  { type: 'setSubBlockValue', id, subBlockId: 'code', value: `const res = await fetch(${JSON.stringify(url)}); return await res.json();` },
  { type: 'setSubBlockValue', id, subBlockId: 'timeout', value: '120000' },
];

/** A new workflow whose starter runs one agent, Writer (gpt-4o, the model fake), prompted with `prompt`. */
async function writerWorkflow(name: string, prompt: string) {
  const wf = await newWorkflow(name);
  const edit = await wf.call('POST', `/api/workflows/${wf.workflowId}/commands`, {
    commands: [
      { type: 'addBlock', id: 'writer', blockType: 'agent', name: 'Writer', position: { x: 400, y: 0 } },
      { type: 'setSubBlockValue', id: 'writer', subBlockId: 'model', value: 'gpt-4o' },
      { type: 'setSubBlockValue', id: 'writer', subBlockId: 'apiKey', value: 'sk-e2e' },
      { type: 'setSubBlockValue', id: 'writer', subBlockId: 'userPrompt', value: prompt },
      { type: 'addEdge', id: 'e1', source: wf.starter, target: 'writer' },
    ],
  });
  expect(edit.status).toBe(200);
  return wf;
}

/** A fake whose GET /hold answers only once the test calls `release()` (each release lets the requests waiting so far through). */
async function holdingServer(): Promise<{ server: FakeServer; url: string; release(): void }> {
  const server = await createFakeServer();
  let open = () => {};
  let opened = new Promise<void>((resolve) => (open = resolve));
  server.on('GET', '/hold', async () => {
    await opened;
    return { json: { held: 'no longer' } };
  });
  const release = () => {
    open();
    opened = new Promise<void>((resolve) => (open = resolve));
  };
  return { server, url: `${server.url}/hold`, release };
}

describe('the run console in the web app', () => {
  const chromium = chromiumPerSuite();

  it('shows a slow function as running while it runs; a rerun from it marks the blocks it reused (done, with a reused badge), live and from the history', async () => {
    const hold = await holdingServer();
    try {
      const { call, workflowId, starter, open } = await newWorkflow('Reuser');
      const edit = await call('POST', `/api/workflows/${workflowId}/commands`, {
        commands: [
          { type: 'addBlock', id: 'compute', blockType: 'function', name: 'Compute', position: { x: 400, y: 0 } },
          { type: 'setSubBlockValue', id: 'compute', subBlockId: 'code', value: 'return 42' },
          { type: 'addEdge', id: 'e1', source: starter, target: 'compute' },
          ...fetching('slow', 'Slow', hold.url, 700),
          { type: 'addEdge', id: 'e2', source: 'compute', target: 'slow' },
        ],
      });
      expect(edit.status).toBe(200);
      const { page, errors } = await open(chromium());
      const console_ = consoleOf(page);

      await page.getByRole('button', { name: 'Run', exact: true }).click();
      // Held at the fake: the function is running, on the canvas and in the console; what ran before it is done.
      await expect.poll(() => hold.server.received('GET', '/hold').length, { timeout: 60_000 }).toBe(1);
      await expect.poll(() => runState(page, 'slow')).toBe('running');
      await expect.poll(() => entryStatus(page, 'Slow')).toBe('Running');
      expect(await runState(page, 'compute')).toBe('done');
      expect(await runStatus(page)).toBe('Running');
      hold.release();
      await expect.poll(() => runStatus(page), { timeout: 60_000 }).toBe('Succeeded');
      expect(await runState(page, 'slow')).toBe('done');
      // A block that ran is not marked reused.
      expect(await console_.getByRole('listitem', { name: 'Log of Compute' }).getByText('reused', { exact: true }).count()).toBe(0);

      // Rerun from Slow: Compute (and the starter) come from the first run; Slow runs again.
      const slow = console_.getByRole('listitem', { name: 'Log of Slow' });
      await slow.getByRole('button').first().click();
      await slow.getByRole('button', { name: 'Run from Slow' }).click();
      await expect.poll(() => hold.server.received('GET', '/hold').length, { timeout: 60_000 }).toBe(2);
      await expect.poll(() => runState(page, 'slow')).toBe('running');
      const compute = console_.getByRole('listitem', { name: 'Log of Compute' });
      await compute.getByText('reused', { exact: true }).waitFor();
      expect(await runState(page, 'compute')).toBe('done');
      expect(await entryStatus(page, 'Compute')).toBe('Done');
      expect(await slow.getByText('reused', { exact: true }).count()).toBe(0);
      await page.screenshot({ path: path.join(tmpdir(), 'weft-console-reused.png') });
      hold.release();
      await expect.poll(() => runStatus(page), { timeout: 60_000 }).toBe('Succeeded');
      expect(await runState(page, 'compute')).toBe('done');
      expect(await slow.getByText('reused', { exact: true }).count()).toBe(0);

      // Opened again from the history, the stored log marks the same blocks.
      await page.reload();
      await page.getByText('live', { exact: true }).waitFor({ timeout: 15_000 });
      await console_.getByRole('tab', { name: 'History' }).click();
      await expect.poll(() => console_.getByRole('list', { name: 'Past runs' }).getByRole('button').count(), { timeout: 15_000 }).toBe(2);
      await console_.getByRole('list', { name: 'Past runs' }).getByRole('button').first().click();
      await compute.getByText('reused', { exact: true }).waitFor({ timeout: 15_000 });
      expect(await slow.getByText('reused', { exact: true }).count()).toBe(0);
      await expect.poll(() => runState(page, 'compute')).toBe('done');
      expect(errors).toEqual([]);
    } finally {
      await hold.server.close();
    }
  });

  it('follows a run still going when it is opened from the history: its blocks as they end, and how the run ended', async () => {
    const hold = await holdingServer();
    try {
      const { call, workflowId, starter, open, cookie } = await newWorkflow('Follower');
      const edit = await call('POST', `/api/workflows/${workflowId}/commands`, { commands: [...fetching('slow', 'Slow', hold.url, 400), { type: 'addEdge', id: 'e1', source: starter, target: 'slow' }] });
      expect(edit.status).toBe(200);
      const started = await api<{ executionId: string }>('POST', `/api/workflows/${workflowId}/execute`, {}, { cookie, 'x-execution-mode': 'async' });
      expect(started.status).toBe(202);
      await expect.poll(() => hold.server.received('GET', '/hold').length, { timeout: 60_000 }).toBe(1);
      const { page, errors } = await open(chromium());
      const console_ = consoleOf(page);
      await console_.getByRole('tab', { name: 'History' }).click();
      await console_.getByRole('list', { name: 'Past runs' }).getByRole('button').first().click({ timeout: 15_000 });
      await expect.poll(() => entryStatus(page, 'Slow'), { timeout: 15_000 }).toBe('Running');
      expect(await runState(page, 'slow')).toBe('running');
      expect(await runStatus(page)).toBe('Running');
      hold.release();
      // No reload: the console reads the run's events until it ends.
      await expect.poll(() => runStatus(page), { timeout: 60_000 }).toBe('Succeeded');
      await expect.poll(() => runState(page, 'slow')).toBe('done');
      expect(await entryStatus(page, 'Slow')).toBe('Done');
      const slow = console_.getByRole('listitem', { name: 'Log of Slow' });
      await slow.getByRole('button').first().click();
      await slow.getByRole('group', { name: 'Output of Slow' }).getByText('no longer', { exact: false }).first().waitFor();
      expect(started.body.executionId).toBeTruthy();
      expect(errors).toEqual([]);
    } finally {
      await hold.server.close();
    }
  });

  it('cancels a long run with Cancel run: the console and the canvas show it cancelled, and so does the history', async () => {
    const slow = await createFakeServer();
    try {
      slow.on('GET', '/hang', { hang: true });
      const { call, workflowId, starter, open } = await newWorkflow('Canceller');
      const edit = await call('POST', `/api/workflows/${workflowId}/commands`, { commands: [...fetching('wait', 'Wait', `${slow.url}/hang`, 400), { type: 'addEdge', id: 'e1', source: starter, target: 'wait' }] });
      expect(edit.status).toBe(200);
      const { page, errors } = await open(chromium());
      const console_ = consoleOf(page);

      await page.getByRole('button', { name: 'Run', exact: true }).click();
      await expect.poll(() => slow.received('GET', '/hang').length, { timeout: 60_000 }).toBe(1);
      await expect.poll(() => runState(page, 'wait')).toBe('running');
      await console_.getByRole('button', { name: 'Cancel run' }).click();
      await expect.poll(() => runStatus(page), { timeout: 60_000 }).toBe('Cancelled');
      await expect.poll(() => runState(page, 'wait')).toBe('cancelled');
      await expect.poll(() => entryStatus(page, 'Wait')).toBe('Cancelled');
      expect(await console_.getByRole('button', { name: 'Cancel run' }).count()).toBe(0);
      // The function's request is closed: the cancel reached it.
      await expect.poll(() => slow.received('GET', '/hang')[0]?.abandoned, { timeout: 15_000 }).toBe(true);

      await console_.getByRole('tab', { name: 'History' }).click();
      const runs = console_.getByRole('list', { name: 'Past runs' }).getByRole('button');
      await expect.poll(() => runs.count(), { timeout: 15_000 }).toBe(1);
      expect(await runs.first().locator('.run-status').textContent()).toBe('Cancelled');
      await runs.first().click();
      await expect.poll(() => entryStatus(page, 'Wait'), { timeout: 15_000 }).toBe('Cancelled');
      expect(await runState(page, 'wait')).toBe('cancelled');
      expect(errors).toEqual([]);
    } finally {
      await slow.close();
    }
  });

  it('shows the branch a condition did not take as skipped, in the console and on the canvas', async () => {
    const { call, workflowId, starter, open } = await newWorkflow('Brancher');
    const conditions = JSON.stringify([
      { id: 'big', title: 'if', value: '1 > 5' },
      { id: 'small', title: 'else', value: '' },
    ]);
    const edit = await call('POST', `/api/workflows/${workflowId}/commands`, {
      commands: [
        { type: 'addBlock', id: 'check', blockType: 'condition', name: 'Check', position: { x: 400, y: 0 } },
        { type: 'setSubBlockValue', id: 'check', subBlockId: 'conditions', value: conditions },
        { type: 'addEdge', id: 'e1', source: starter, target: 'check' },
        { type: 'addBlock', id: 'large', blockType: 'function', name: 'Large', position: { x: 750, y: -120 } },
        { type: 'setSubBlockValue', id: 'large', subBlockId: 'code', value: 'return "large"' },
        { type: 'addEdge', id: 'to-large', source: 'check', target: 'large', sourceHandle: 'condition-big' },
        { type: 'addBlock', id: 'little', blockType: 'function', name: 'Little', position: { x: 750, y: 140 } },
        { type: 'setSubBlockValue', id: 'little', subBlockId: 'code', value: 'return "little"' },
        { type: 'addEdge', id: 'to-little', source: 'check', target: 'little', sourceHandle: 'condition-small' },
      ],
    });
    expect(edit.status).toBe(200);
    const { page, errors } = await open(chromium());

    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => runStatus(page), { timeout: 60_000 }).toBe('Succeeded');
    await expect.poll(() => runState(page, 'large')).toBe('skipped');
    expect(await runState(page, 'little')).toBe('done');
    expect(await runState(page, 'check')).toBe('done');
    expect(await entryStatus(page, 'Large')).toBe('Skipped');
    expect(await entryStatus(page, 'Little')).toBe('Done');
    expect(errors).toEqual([]);
  });

  it("streams an agent's text into the console as it arrives, then shows its tokens and cost", async () => {
    const marker = `[console-stream-${randomUUID()}]`;
    const story = 'Once upon a time in a quiet harbour the boats slept.';
    // Held before its fifth event: the role chunk and "Once upon a time " have left the fake, the rest waits.
    await scriptModel(marker, [{ content: story, holdAt: 5, usage: { prompt: 1200, completion: 300 } }]);
    const { call, workflowId, open } = await writerWorkflow('Story streamer', `Tell a story ${marker}`);
    const { page, errors } = await open(chromium());
    const console_ = consoleOf(page);

    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const streamed = console_.getByLabel('Streamed output of Writer');
    await expect.poll(() => streamed.textContent(), { timeout: 60_000 }).toBe('Once upon a time ');
    expect(await runState(page, 'writer')).toBe('running');
    expect(await entryStatus(page, 'Writer')).toBe('Running');
    await page.screenshot({ path: path.join(tmpdir(), 'weft-console-streaming.png') });
    await releaseModel(marker);
    await expect.poll(() => runStatus(page), { timeout: 60_000 }).toBe('Succeeded');
    expect(await runState(page, 'writer')).toBe('done');

    // The row shows the block's tokens and cost as the run logged them; the summary the run's.
    const executionId = (await call<{ executions: Array<{ executionId: string }> }>('GET', `/api/workflows/${workflowId}/executions`)).body.executions[0]?.executionId ?? '';
    const stored = await untilEnded<{ status: string; logs: Array<{ blockId: string; tokens?: { total?: number }; cost?: { total?: number } }> }>(executionId, { read: call });
    const logged = stored.logs.find((l) => l.blockId === 'writer');
    expect(logged?.tokens?.total).toBe(1500);
    // gpt-4o at $2.50 / $10 a million: $0.006, shown with 4 decimals below a cent (000 §9).
    expect(logged?.cost?.total).toBeCloseTo(0.006, 9);
    const row = console_.getByRole('listitem', { name: 'Log of Writer' }).locator('.log-row .log-meta');
    await row.getByText('1500 tokens', { exact: true }).waitFor();
    await row.getByText('$0.0060', { exact: true }).waitFor();
    const summary = console_.locator('.console-summary');
    await summary.getByText('1500 tokens', { exact: true }).waitFor();
    await summary.getByText('$0.0060', { exact: true }).waitFor();
    // The answer in full once it ended.
    const writer = console_.getByRole('listitem', { name: 'Log of Writer' });
    await writer.getByRole('button').first().click();
    await writer.getByRole('group', { name: 'Output of Writer' }).getByText(story, { exact: false }).first().waitFor();
    expect(errors).toEqual([]);
  });

  it("shows an agent's answer cut off at the max tokens limit with a warning on its row, apart from errors", async () => {
    const marker = `[console-cut-${randomUUID()}]`;
    // The first run's answer is cut off; the next one's is whole.
    await scriptModel(marker, [
      { content: 'The first half of an answer', finishReason: 'length' },
      { content: 'A whole answer.' },
    ]);
    const { open } = await writerWorkflow('Cut-off writer', `Write at length ${marker}`);
    const { page, errors } = await open(chromium());
    const console_ = consoleOf(page);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => runStatus(page), { timeout: 60_000 }).toBe('Succeeded');

    // The block succeeded with what it had: done, its warning shown on its row without opening it, no error.
    const warning = 'The answer was cut off at the max tokens limit (openai finish_reason length): it is incomplete';
    const writer = console_.getByRole('listitem', { name: 'Log of Writer' });
    expect(await entryStatus(page, 'Writer')).toBe('Done');
    await expect.poll(() => writer.getByRole('note', { name: 'Warning of Writer' }).textContent()).toBe(warning);
    expect(await writer.locator('.log-row .badge.warning').getAttribute('title')).toBe(warning);
    expect(await writer.locator('.log-error').count()).toBe(0);
    expect(await console_.getByRole('alert').count()).toBe(0);
    expect(await console_.getByRole('note').count()).toBe(1);

    // Run again: the whole answer shows no warning.
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => console_.getByRole('note').count()).toBe(0);
    await expect.poll(() => runStatus(page), { timeout: 60_000 }).toBe('Succeeded');
    expect(await entryStatus(page, 'Writer')).toBe('Done');
    await writer.getByRole('button').first().click();
    await writer.getByRole('group', { name: 'Output of Writer' }).getByText('A whole answer.', { exact: false }).first().waitFor();
    expect(await console_.getByRole('note').count()).toBe(0);
    expect(await writer.locator('.log-row .badge.warning').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('filters the run history by trigger: a schedule fire, a manual run, an API call with the deployment key and a webhook call each under their own', async () => {
    const hookPath = `console-${randomUUID()}`;
    const { call, workflowId, starter, open } = await newWorkflow('Trigger filter');
    const set = (subBlockId: string, value: string) => ({ type: 'setSubBlockValue', id: starter, subBlockId, value });
    const edit = await call('POST', `/api/workflows/${workflowId}/commands`, {
      commands: [
        set('startWorkflow', 'schedule'),
        set('scheduleType', 'minutes'),
        set('minutesInterval', '10s'),
        { type: 'addBlock', id: 'fn', blockType: 'function', name: 'Echo', position: { x: 400, y: 0 } },
        { type: 'setSubBlockValue', id: 'fn', subBlockId: 'code', value: 'return 1' },
        { type: 'addEdge', id: 'e1', source: starter, target: 'fn' },
      ],
    });
    expect(edit.status).toBe(200);
    // Deployed on a 10 s schedule until it has fired, then redeployed as a webhook (which ends the schedule).
    expect((await call('POST', `/api/workflows/${workflowId}/deploy`, {})).status).toBe(200);
    const listed = async (trigger: string) => (await call<{ executions: Array<{ executionId: string; trigger: string }> }>('GET', `/api/workflows/${workflowId}/executions?trigger=${trigger}`)).body.executions;
    await expect.poll(async () => (await listed('schedule')).length, { timeout: 60_000, interval: 500 }).toBeGreaterThanOrEqual(1);
    expect((await call('POST', `/api/workflows/${workflowId}/commands`, { commands: [set('startWorkflow', 'webhook'), set('webhookPath', hookPath)] })).status).toBe(200);
    const deployed = await call<{ apiKey: string }>('POST', `/api/workflows/${workflowId}/deploy`, {});
    expect(deployed.status).toBe(200);

    const manual = await call('POST', `/api/workflows/${workflowId}/execute`, {});
    expect(manual.status).toBe(200);
    const byKey = await fetch(`${inject('weftUrl')}/api/workflows/${workflowId}/execute`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': deployed.body.apiKey }, body: '{}' });
    expect(byKey.status).toBe(200);
    const hooked = await fetch(`${inject('weftUrl')}/api/webhooks/trigger/${hookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' });
    expect(hooked.status).toBe(200);
    await untilEnded(((await hooked.json()) as { executionId: string }).executionId, { read: call, timeout: 60_000 });

    const { page, errors } = await open(chromium());
    const console_ = consoleOf(page);
    await console_.getByRole('tab', { name: 'History' }).click();
    const runs = console_.getByRole('list', { name: 'Past runs' }).getByRole('button');
    const triggers = () => runs.locator('.badge').allTextContents();
    // Each run's trigger by its label (`triggerLabel`); the filter still sends the raw value.
    await expect.poll(async () => [...new Set(await triggers())].sort(), { timeout: 15_000 }).toEqual(['API', 'Manual', 'Schedule', 'Webhook']);
    const filter = console_.getByRole('combobox', { name: 'Filter runs by trigger' });
    for (const [trigger, label] of [['manual', 'Manual'], ['api', 'API'], ['webhook', 'Webhook']] as const) {
      await filter.selectOption(trigger);
      await expect.poll(triggers).toEqual([label]);
    }
    // A fire taken as the redeploy ended the schedule may be listed a moment later: as many as the API lists.
    await filter.selectOption('schedule');
    await expect.poll(async () => (await triggers()).length === (await listed('schedule')).length && (await triggers()).every((t) => t === 'Schedule')).toBe(true);
    await filter.selectOption('chat');
    await expect.poll(() => runs.count()).toBe(0);
    await console_.getByText('No runs match.', { exact: true }).waitFor();
    await filter.selectOption('');
    await expect.poll(async () => (await runs.count()) - (await listed('schedule')).length).toBe(3);

    // The API run opens from the filtered list.
    await filter.selectOption('api');
    await expect.poll(triggers).toEqual(['API']);
    await runs.first().click();
    await expect.poll(() => runStatus(page), { timeout: 15_000 }).toBe('Succeeded');
    await console_.getByRole('listitem', { name: 'Log of Echo' }).waitFor();
    expect(errors).toEqual([]);
  });
});
