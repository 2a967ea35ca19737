import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFakeServer } from '@weft/testkit';
import { chromiumPerSuite } from './support/browser.js';
import { openWorkflow } from './support/editing.js';
import { consoleOf, runState, runStatus } from './support/runConsole.js';
import { newWorkflow, openNewWorkflow } from './support/workflows.js';

describe('running and deploying from the web app', () => {
  const chromium = chromiumPerSuite();

  /** A workflow: starter (asking for `n`) → function "Compute" → function "Double", built through the API. */
  async function computeWorkflow(name: string) {
    const { call, workflowId, starter, cookie } = await newWorkflow(name);
    const edit = await call('POST', `/api/workflows/${workflowId}/commands`, {
      commands: [
        { type: 'setSubBlockValue', id: starter, subBlockId: 'inputFormat', value: [{ id: 'f1', name: 'n', type: 'number' }] },
        { type: 'addBlock', id: 'compute', blockType: 'function', name: 'Compute', position: { x: 400, y: 0 } },
        { type: 'setSubBlockValue', id: 'compute', subBlockId: 'code', value: 'return { answer: <start.input.n> + 2 }' },
        { type: 'addEdge', id: 'e1', source: starter, target: 'compute' },
        { type: 'addBlock', id: 'double', blockType: 'function', name: 'Double', position: { x: 700, y: 0 } },
        { type: 'setSubBlockValue', id: 'double', subBlockId: 'code', value: 'return <compute.result.answer> * 2' },
        { type: 'addEdge', id: 'e2', source: 'compute', target: 'double' },
      ],
    });
    expect(edit.status).toBe(200);
    return { call, workflowId, cookie };
  }

  it('runs with the starter’s input, shows each block’s state and log, lists the run in the history and reruns from a block', async () => {
    const { workflowId, cookie } = await computeWorkflow('Runner');
    const { page, errors } = await openWorkflow(chromium(), cookie, workflowId);

    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Run input' });
    await dialog.getByRole('textbox', { name: 'n' }).fill('forty');
    await dialog.getByRole('button', { name: 'Run' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'n must be a number' }).waitFor();
    await dialog.getByRole('textbox', { name: 'n' }).fill('40');
    await dialog.getByRole('button', { name: 'Run' }).click();

    const console_ = consoleOf(page);
    await expect.poll(() => runStatus(page), { timeout: 60_000 }).toBe('Succeeded');
    // Each block shows its state on the canvas.
    for (const id of ['compute', 'double']) await expect.poll(() => runState(page, id)).toBe('done');
    // The log of a block opens to its input and output.
    const doubled = console_.getByRole('listitem', { name: 'Log of Double' });
    await doubled.getByRole('button').first().click();
    await doubled.getByRole('group', { name: 'Output of Double' }).getByText('84', { exact: true }).waitFor();
    await console_.getByRole('group', { name: 'Workflow output' }).getByText('84', { exact: true }).waitFor();

    // Rerun from Double: a new run that reuses Compute's output.
    await doubled.getByRole('button', { name: 'Run from Double' }).click();
    await expect.poll(() => runStatus(page), { timeout: 60_000 }).toBe('Succeeded');

    // The history lists both runs; a failed-only filter lists none.
    await console_.getByRole('tab', { name: 'History' }).click();
    await expect.poll(() => console_.getByRole('list', { name: 'Past runs' }).getByRole('button').count(), { timeout: 15_000 }).toBe(2);
    await console_.getByRole('combobox', { name: 'Filter runs by status' }).selectOption('failed');
    await expect.poll(() => console_.getByRole('list', { name: 'Past runs' }).getByRole('button').count()).toBe(0);
    await console_.getByRole('combobox', { name: 'Filter runs by status' }).selectOption('');
    await console_.getByRole('list', { name: 'Past runs' }).getByRole('button').last().click();
    await console_.getByRole('listitem', { name: 'Log of Compute' }).waitFor();
    await page.screenshot({ path: path.join(tmpdir(), 'weft-run-console.png') });
    expect(errors).toEqual([]);
  });

  it('shows a failing block’s error, then deploys, marks changes not deployed, activates a version and undeploys', async () => {
    const { call, workflowId, cookie } = await computeWorkflow('Deployer');
    await call('POST', `/api/workflows/${workflowId}/commands`, { commands: [{ type: 'setSubBlockValue', id: 'double', subBlockId: 'code', value: 'throw new Error("no doubling today")' }] });
    const { page, errors } = await openWorkflow(chromium(), cookie, workflowId);

    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('dialog', { name: 'Run input' }).getByRole('button', { name: 'Run' }).click();
    const console_ = consoleOf(page);
    await expect.poll(() => runStatus(page), { timeout: 60_000 }).toBe('Failed');
    await expect.poll(() => runState(page, 'double')).toBe('failed');
    await console_.getByRole('listitem', { name: 'Log of Double' }).getByText(/no doubling today/).first().waitFor();

    // Deploy: the dialog shows the key, a curl call and the active version.
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    const deploy = page.getByRole('dialog', { name: 'Deploy' });
    await deploy.getByText('Not deployed', { exact: true }).waitFor();
    await deploy.getByRole('button', { name: 'Deploy', exact: true }).click();
    await deploy.getByText('Deployed', { exact: true }).waitFor({ timeout: 30_000 });
    const key = await deploy.getByRole('textbox', { name: 'Deployment API key' }).inputValue();
    expect(key.length).toBeGreaterThan(10);
    expect(await deploy.getByLabel('curl example').textContent()).toContain(`X-API-Key: ${key}`);
    await deploy.getByRole('region', { name: 'Versions' }).getByText('Active', { exact: true }).waitFor();

    // An edit that changes what runs: "Changes not deployed"; redeploy makes v2; activating v1 again.
    await call('POST', `/api/workflows/${workflowId}/commands`, { commands: [{ type: 'setSubBlockValue', id: 'double', subBlockId: 'code', value: 'return 1' }] });
    await deploy.getByText('Changes not deployed', { exact: true }).waitFor({ timeout: 15_000 });
    await deploy.getByRole('button', { name: 'Redeploy', exact: true }).click();
    await deploy.getByRole('button', { name: 'Activate v1', exact: true }).click({ timeout: 30_000 });
    await expect.poll(async () => (await call<{ data: Array<{ version: number; isActive: boolean }> }>('GET', `/api/workflows/${workflowId}/deployments`)).body.data.find((v) => v.isActive)?.version, { timeout: 15_000 }).toBe(1);

    await page.screenshot({ path: path.join(tmpdir(), 'weft-deploy.png') });
    await deploy.getByRole('button', { name: 'Undeploy', exact: true }).click();
    await page.getByRole('alertdialog', { name: 'Undeploy the workflow?' }).getByRole('button', { name: 'Undeploy', exact: true }).click();
    await deploy.getByText('Not deployed', { exact: true }).waitFor({ timeout: 15_000 });
    expect(errors).toEqual([]);
  });

  it('marks the path the run took from its logs: a failing function’s error edge to its handler, not its normal edge', async () => {
    const { call, workflowId, starter, cookie } = await newWorkflow('Error path');
    const edit = await call('POST', `/api/workflows/${workflowId}/commands`, {
      commands: [
        { type: 'addBlock', id: 'risky', blockType: 'function', name: 'Risky', position: { x: 400, y: 0 } },
        { type: 'setSubBlockValue', id: 'risky', subBlockId: 'code', value: 'throw new Error("out of stock")' },
        { type: 'addEdge', id: 'to-risky', source: starter, target: 'risky' },
        { type: 'addBlock', id: 'ship', blockType: 'function', name: 'Ship', position: { x: 750, y: -120 } },
        { type: 'setSubBlockValue', id: 'ship', subBlockId: 'code', value: 'return "shipped"' },
        { type: 'addEdge', id: 'on-success', source: 'risky', target: 'ship' },
        { type: 'addBlock', id: 'apology', blockType: 'function', name: 'Apologise', position: { x: 750, y: 140 } },
        { type: 'setSubBlockValue', id: 'apology', subBlockId: 'code', value: 'return "sorry"' },
        { type: 'addEdge', id: 'on-error', source: 'risky', target: 'apology', sourceHandle: 'error' },
      ],
    });
    expect(edit.status).toBe(200);
    const { page, errors } = await openWorkflow(chromium(), cookie, workflowId);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => runState(page, 'apology'), { timeout: 60_000 }).toBe('done');
    expect(await runState(page, 'risky')).toBe('failed');
    const onPath = async (id: string) => ((await page.getByTestId(`rf__edge-${id}`).getAttribute('class')) ?? '').split(/\s+/).includes('run-path');
    await expect.poll(() => onPath('on-error')).toBe(true);
    expect(await onPath('to-risky')).toBe(true);
    expect(await onPath('on-success')).toBe(false);
    await page.screenshot({ path: path.join(tmpdir(), 'weft-run-error-path.png') });

    // Opened again from the history, the stored logs give the same path.
    await page.reload();
    await page.getByText('live', { exact: true }).waitFor({ timeout: 15_000 });
    const console_ = consoleOf(page);
    await console_.getByRole('tab', { name: 'History' }).click();
    await console_.getByRole('list', { name: 'Past runs' }).getByRole('button').first().click();
    await expect.poll(() => onPath('on-error'), { timeout: 15_000 }).toBe(true);
    expect(await onPath('on-success')).toBe(false);
    expect(errors).toEqual([]);
  });

  it('writes a streamed curl call for the model blocks chosen in the deploy dialog', async () => {
    const { call, workflowId, starter, cookie } = await newWorkflow('Streamer');
    const edit = await call('POST', `/api/workflows/${workflowId}/commands`, {
      commands: [
        { type: 'addBlock', id: 'writer', blockType: 'agent', name: 'Story Writer', position: { x: 400, y: 0 } },
        { type: 'setSubBlockValue', id: 'writer', subBlockId: 'model', value: 'gpt-4o' },
        { type: 'setSubBlockValue', id: 'writer', subBlockId: 'apiKey', value: 'sk-web' },
        { type: 'setSubBlockValue', id: 'writer', subBlockId: 'userPrompt', value: 'Write' },
        { type: 'addEdge', id: 'e1', source: starter, target: 'writer' },
        { type: 'addBlock', id: 'fn', blockType: 'function', name: 'Tidy', position: { x: 700, y: 0 } },
        { type: 'setSubBlockValue', id: 'fn', subBlockId: 'code', value: 'return 1' },
        { type: 'addEdge', id: 'e2', source: 'writer', target: 'fn' },
      ],
    });
    expect(edit.status).toBe(200);
    expect((await call('POST', `/api/workflows/${workflowId}/deploy`, {})).status).toBe(200);
    const { page, errors } = await openWorkflow(chromium(), cookie, workflowId);
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    const deploy = page.getByRole('dialog', { name: 'Deploy' });
    const curl = deploy.getByLabel('curl example');
    await curl.waitFor({ timeout: 30_000 });
    expect(await curl.textContent()).toContain(`-d '{}'`);
    // Only the agent is offered: a function block has no tokens to stream.
    const choices = deploy.getByRole('group', { name: 'Stream the tokens of' });
    expect(await choices.locator('label').allTextContents()).toEqual(['Story Writer']);
    await choices.getByText('Story Writer', { exact: true }).click();
    await expect.poll(() => curl.textContent()).toContain(`-d '{"stream":true,"selectedOutputs":["storywriter.content"]}'`);
    await choices.getByText('Story Writer', { exact: true }).click();
    await expect.poll(() => curl.textContent()).toContain(`-d '{}'`);
    expect(errors).toEqual([]);
  });

  it('lets the editor’s Run choose which model blocks stream their tokens (selectedOutputs)', async () => {
    const { call, workflowId, starter, cookie } = await newWorkflow('Stream chooser');
    const agent = (id: string, name: string, y: number) => [
      { type: 'addBlock', id, blockType: 'agent', name, position: { x: 400, y } },
      { type: 'setSubBlockValue', id, subBlockId: 'model', value: 'gpt-4o' },
      { type: 'setSubBlockValue', id, subBlockId: 'apiKey', value: 'sk-e2e' },
      { type: 'setSubBlockValue', id, subBlockId: 'userPrompt', value: `Say hello, ${name}` },
      { type: 'addEdge', id: `to-${id}`, source: starter, target: id },
    ];
    expect((await call('POST', `/api/workflows/${workflowId}/commands`, { commands: [...agent('writer', 'Writer', -100), ...agent('critic', 'Critic', 150)] })).status).toBe(200);
    const { page, errors } = await openWorkflow(chromium(), cookie, workflowId);

    await page.getByRole('button', { name: 'Streamed blocks' }).click();
    const choice = page.getByRole('dialog', { name: 'Stream model tokens of' });
    const chips = choice.getByRole('group', { name: 'Streamed blocks' });
    expect(await chips.locator('label').allTextContents()).toEqual(['Writer', 'Critic']);
    await chips.getByText('Critic', { exact: true }).click();
    await expect.poll(() => chips.locator('label.on').allTextContents()).toEqual(['Writer']);
    await page.screenshot({ path: path.join(tmpdir(), 'weft-run-stream-choice.png'), animations: 'disabled' });
    await page.keyboard.press('Escape');
    await choice.waitFor({ state: 'detached' });

    const [request] = await Promise.all([page.waitForRequest((r) => r.url().endsWith(`/api/workflows/${workflowId}/execute`)), page.getByRole('button', { name: 'Run', exact: true }).click()]);
    expect(request.postDataJSON()).toEqual({ selectedOutputs: ['writer'] });
    const response = await request.response();
    await expect.poll(() => runStatus(page), { timeout: 60_000 }).toBe('Succeeded');
    // The server streamed the Writer's tokens only.
    const streamedBlocks = new Set(((await response?.text()) ?? '').split('\n\n').filter((m) => m.includes('event: stream:chunk')).map((m) => /"blockId":"(\w+)"/.exec(m)?.[1]));
    expect(streamedBlocks).toEqual(new Set(['writer']));
    expect(errors).toEqual([]);
  });

  it('shows each try of a retried block in its log: how many, and each one’s error', async () => {
    const flaky = await createFakeServer();
    try {
      let calls = 0;
      flaky.on('GET', '/flaky', () => (++calls < 3 ? { status: 503, json: { busy: true } } : { json: { ok: 1 } }));
      const { call, workflowId, starter, cookie } = await newWorkflow('Retrier');
      const edit = await call('POST', `/api/workflows/${workflowId}/commands`, {
        commands: [
          { type: 'addBlock', id: 'fetch', blockType: 'api', name: 'Fetch', position: { x: 400, y: 0 } },
          { type: 'setSubBlockValue', id: 'fetch', subBlockId: 'url', value: `${flaky.url}/flaky` },
          { type: 'setSubBlockValue', id: 'fetch', subBlockId: 'method', value: 'GET' },
          { type: 'addEdge', id: 'e1', source: starter, target: 'fetch' },
        ],
      });
      expect(edit.status).toBe(200);
      const { page, errors } = await openWorkflow(chromium(), cookie, workflowId);
      // No input fields: Run starts at once, without the input dialog.
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      const console_ = consoleOf(page);
      await expect.poll(() => runStatus(page), { timeout: 60_000 }).toBe('Succeeded');
      const fetched = console_.getByRole('listitem', { name: 'Log of Fetch' });
      await fetched.getByText('3 tries', { exact: true }).waitFor();
      await fetched.getByRole('button').first().click();
      const tries = fetched.getByRole('list', { name: 'Attempts of Fetch' }).getByRole('listitem');
      await expect.poll(() => tries.count()).toBe(3);
      expect(await tries.nth(0).textContent()).toMatch(/^Try 1 .*HTTP error 503: Service Unavailable$/);
      expect(await tries.nth(1).textContent()).toMatch(/^Try 2 .*HTTP error 503: Service Unavailable$/);
      expect(await tries.nth(2).textContent()).toMatch(/^Try 3 .*answered$/);
      expect(errors).toEqual([]);
    } finally {
      await flaky.close();
    }
  });

  it('shows a value past the 16 MB an answer carries as a stored value, and loads it on request', async () => {
    const MB = 1024 * 1024;
    const { call, workflowId, starter, cookie } = await newWorkflow('Big values');
    // Five iterations of a 4 MB output: the run's output alone is 20 MB, past one answer's 16 MB.
    const edit = await call('POST', `/api/workflows/${workflowId}/commands`, {
      commands: [
        { type: 'addBlock', id: 'loop', blockType: 'loop', name: 'Loop', position: { x: 400, y: 0 }, data: { loopType: 'for', count: 5 } },
        { type: 'addEdge', id: 'e1', source: starter, target: 'loop' },
        { type: 'addBlock', id: 'huge', blockType: 'function', name: 'Huge', position: { x: 50, y: 50 }, parentId: 'loop' },
        { type: 'setSubBlockValue', id: 'huge', subBlockId: 'code', value: `return String(<loop.index>).padEnd(${4 * MB}, "z")` },
        { type: 'addEdge', id: 'e2', source: 'loop', target: 'huge', sourceHandle: 'loop-start-source' },
      ],
    });
    expect(edit.status).toBe(200);
    // Run through the API (the page need not stream 60 MB of logs), then open the run from the history.
    const ran = await call<{ success: boolean; metadata: { executionId: string } }>('POST', `/api/workflows/${workflowId}/execute`, {});
    expect(ran.body.success).toBe(true);
    const { page, errors } = await openWorkflow(chromium(), cookie, workflowId);
    const console_ = consoleOf(page);
    await console_.getByRole('tab', { name: 'History' }).click();
    await console_.getByRole('list', { name: 'Past runs' }).getByRole('button').first().click();

    const output = console_.getByRole('group', { name: 'Workflow output' });
    await output.getByText('stored value, 4.0 MB').first().waitFor({ timeout: 30_000 });
    const stored = await output.getByRole('button', { name: /^Load value/ }).count();
    expect(stored).toBeGreaterThanOrEqual(1);
    const shown = await output.getByText(/^"[0-4]z{100}/).count();
    await output.getByRole('button', { name: /^Load value/ }).first().click();
    // The value takes the reference's place: one button fewer, one more 4 MB text (cut when shown; some sit in folded items).
    await expect.poll(() => output.getByRole('button', { name: /^Load value/ }).count(), { timeout: 30_000 }).toBe(stored - 1);
    await expect.poll(() => output.getByText(/^"[0-4]z{100}/).count()).toBe(shown + 1);
    expect(errors).toEqual([]);
  });

  it('after an undeploy no version shows as active: the one that was offers "Activate", which deploys it again', async () => {
    const { call, workflowId, page, errors } = await openNewWorkflow(chromium(), 'Undeployer');
    expect((await call('POST', `/api/workflows/${workflowId}/deploy`, {})).status).toBe(200);
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    const deploy = page.getByRole('dialog', { name: 'Deploy' });
    const versions = deploy.getByRole('region', { name: 'Versions' });
    await versions.getByText('Active', { exact: true }).waitFor({ timeout: 15_000 });

    // Undeploy asks first: Cancel (or Escape) leaves the workflow deployed and the deploy dialog open.
    const asked = page.getByRole('alertdialog', { name: 'Undeploy the workflow?' });
    await deploy.getByRole('button', { name: 'Undeploy', exact: true }).click();
    await asked.getByText('Its API, webhooks and schedules stop until it is deployed again. Its versions are kept.').waitFor();
    await asked.getByRole('button', { name: 'Cancel', exact: true }).click();
    await deploy.getByRole('button', { name: 'Undeploy', exact: true }).click();
    await page.keyboard.press('Escape');
    await asked.waitFor({ state: 'detached' });
    expect((await call<{ isDeployed: boolean }>('GET', `/api/workflows/${workflowId}/deploy`)).body.isDeployed).toBe(true);
    await deploy.getByText('Deployed', { exact: true }).waitFor();

    // Undeployed, "Not deployed" above and "Active" beside v1 contradicted each other.
    await deploy.getByRole('button', { name: 'Undeploy', exact: true }).click();
    await asked.getByRole('button', { name: 'Undeploy', exact: true }).click();
    await deploy.getByText('Not deployed', { exact: true }).waitFor({ timeout: 15_000 });
    await versions.getByRole('button', { name: 'Activate v1', exact: true }).waitFor();
    expect(await versions.getByText('Active', { exact: true }).count()).toBe(0);
    await page.screenshot({ path: path.join(tmpdir(), 'weft-undeployed.png') });

    // Activating it deploys it again.
    await versions.getByRole('button', { name: 'Activate v1', exact: true }).click();
    await deploy.getByText('Deployed', { exact: true }).waitFor({ timeout: 15_000 });
    await versions.getByText('Active', { exact: true }).waitFor();
    expect((await call<{ isDeployed: boolean }>('GET', `/api/workflows/${workflowId}/deploy`)).body.isDeployed).toBe(true);
    expect(errors).toEqual([]);
  });
  it('keeps Deploy disabled while the dialog lists problems that block a deploy, with a title saying so', async () => {
    const { call, workflowId, page, errors } = await openNewWorkflow(chromium(), 'Blocked deploy');
    const edit = await call('POST', `/api/workflows/${workflowId}/commands`, { commands: [{ type: 'addBlock', id: 'loop', blockType: 'loop', name: 'Loop 1', position: { x: 400, y: 0 } }] });
    expect(edit.status).toBe(200);
    await page.locator('.react-flow__node[data-id="loop"]').waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    const deploy = page.getByRole('dialog', { name: 'Deploy' });
    await deploy.getByRole('region', { name: 'Problems' }).getByText(/is empty/).waitFor();
    const button = deploy.getByRole('button', { name: 'Deploy', exact: true });
    expect(await button.isDisabled()).toBe(true);
    expect(await button.getAttribute('title')).toBe('Fix the problems listed above before deploying');
    expect((await call<{ isDeployed: boolean }>('GET', `/api/workflows/${workflowId}/deploy`)).body.isDeployed).toBe(false);
    expect(errors).toEqual([]);
  });
  it('right after a deploy shows the workflow as up to date, not "Redeploy", until the draft changes', async () => {
    const { call, workflowId, starter, page, errors } = await openNewWorkflow(chromium(), 'Up to date');
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    const deploy = page.getByRole('dialog', { name: 'Deploy' });
    await deploy.getByText('Not deployed', { exact: true }).waitFor();
    await deploy.getByRole('button', { name: 'Deploy', exact: true }).click();
    const upToDate = deploy.getByRole('button', { name: 'Up to date', exact: true });
    await upToDate.waitFor({ timeout: 30_000 });
    expect(await upToDate.isDisabled()).toBe(true);
    expect(await deploy.getByRole('button', { name: 'Redeploy', exact: true }).count()).toBe(0);

    // An edit that changes what runs: "Changes not deployed" and the call to redeploy.
    const edit = await call('POST', `/api/workflows/${workflowId}/commands`, { commands: [{ type: 'setSubBlockValue', id: starter, subBlockId: 'inputFormat', value: [{ id: 'f1', name: 'n', type: 'number' }] }] });
    expect(edit.status).toBe(200);
    await deploy.getByText('Changes not deployed', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await deploy.getByRole('button', { name: 'Redeploy', exact: true }).isEnabled()).toBe(true);
    expect(await upToDate.count()).toBe(0);
    expect(errors).toEqual([]);
  });
  it('copies the deploy dialog’s curl call with its copy button, as the API key’s', async () => {
    const { call, workflowId, page, errors } = await openNewWorkflow(chromium(), 'Curl copier');
    expect((await call('POST', `/api/workflows/${workflowId}/deploy`, {})).status).toBe(200);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    const deploy = page.getByRole('dialog', { name: 'Deploy' });
    const curl = deploy.getByLabel('curl example', { exact: true });
    await curl.waitFor({ timeout: 30_000 });
    await deploy.getByRole('button', { name: 'Copy curl command', exact: true }).click();
    await page.getByText('Copied to the clipboard').first().waitFor();
    const copied = await page.evaluate('navigator.clipboard.readText()');
    expect(copied).toBe(await curl.textContent());
    expect(copied).toContain(`/api/workflows/${workflowId}/execute`);
    expect(errors).toEqual([]);
  });
});
