import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { uniqueSuffix } from '@weft/testkit';
import { chromiumPerSuite } from './support/browser.js';
import { addFromPalette, drag, fitView, stableBox } from './support/editing.js';
import { showSidebar } from './support/layout.js';
import { newWorkflow, type NewWorkflow } from './support/workflows.js';

interface ServerBlock {
  id: string;
  type: string;
  name: string;
  data: { parentId?: string };
  subBlocks: Record<string, { value: unknown } | undefined>;
}
interface ServerState {
  blocks: Record<string, ServerBlock>;
  edges: Array<{ source: string; target: string }>;
}

/** Two starters, both connected to one function: an import keeps the first and leaves the second out. */
const TWO_STARTERS = [
  'version: "1.0"',
  'blocks:',
  '  start:',
  '    type: starter',
  '    name: Start',
  '    connections: [fn]',
  '  start2:',
  '    type: starter',
  '    name: Start 2',
  '    connections: [fn]',
  '  fn:',
  '    type: function',
  '    name: Fn',
  '    inputs:',
  '      code: return 1',
  '',
].join('\n');

/** A workflow as a user sees it, ids aside: blocks by name with their type and set values, connections by names. */
function shape(state: ServerState) {
  const name = (id: string) => state.blocks[id]?.name ?? id;
  return {
    blocks: Object.values(state.blocks)
      .map((b) => ({ type: b.type, name: b.name, values: Object.fromEntries(Object.entries(b.subBlocks).filter(([, s]) => s?.value !== null && s?.value !== undefined).map(([k, s]) => [k, s?.value])) }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    edges: state.edges.map((e) => `${name(e.source)} -> ${name(e.target)}`).sort(),
  };
}

/** The id of the workflow the page has open (`?workflow=`), once it is not `but`. */
async function openedOtherThan(page: Page, but: string): Promise<string> {
  let id = '';
  await expect.poll(() => (id = new URL(page.url()).searchParams.get('workflow') ?? '') !== '' && id !== but).toBe(true);
  return id;
}

/** Imports `yaml` as the file `name` through the sidebar's Import YAML. */
async function importYaml(page: Page, name: string, yaml: string): Promise<void> {
  const sidebar = await showSidebar(page);
  await sidebar.getByLabel('YAML file to import').setInputFiles({ name, mimeType: 'application/yaml', buffer: Buffer.from(yaml) });
}

const read = async (wf: NewWorkflow, workflowId: string) => (await wf.call<{ data: { state: ServerState } }>('GET', `/api/workflows/${workflowId}`)).body.data.state;
const listed = async (wf: NewWorkflow) => (await wf.call<{ data: Array<{ id: string; name: string }> }>('GET', `/api/workflows?workspaceId=${wf.owner.workspaceId}`)).body.data;
const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });

describe('YAML import and export, and the deploy dialog, in the web app', () => {
  const chromium = chromiumPerSuite();

  it('says which starter a YAML import left out, and an exported workflow imported again is the same workflow', async () => {
    const wf = await newWorkflow('YAML importer');
    const { page, errors } = await wf.open(chromium());

    await importYaml(page, 'two-starters.yaml', TWO_STARTERS);
    const imported = await openedOtherThan(page, wf.workflowId);
    // The PUT answer's warning, kept until dismissed (the success toast beside it goes by itself).
    const warning = toast(page, 'two-starters.yaml: Left out starter block "Start 2" (start2) and its 1 connection: a workflow can have only one starter block');
    await warning.waitFor();
    expect(shape(await read(wf, imported)).blocks.map((b) => b.name)).toEqual(['Fn', 'Start']);
    await warning.getByRole('button', { name: 'Dismiss' }).click();
    await warning.waitFor({ state: 'detached' });

    // Export it from the sidebar (a download) and import the file again: the same workflow, and no warning.
    const sidebar = await showSidebar(page);
    const row = sidebar.getByRole('button', { name: 'Actions for two-starters', exact: true });
    await row.click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'Export YAML' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('two-starters.yaml');
    const exported = await readFile((await download.path()) ?? '', 'utf8');
    expect(exported).toContain('Fn');
    const fnNode = page.locator('.react-flow__node').filter({ has: page.locator('.block-name', { hasText: /^Fn$/ }) });
    const shownFn = await fnNode.elementHandle();
    await importYaml(page, 'round-trip.yaml', exported);
    const again = await openedOtherThan(page, imported);
    expect(shape(await read(wf, again))).toEqual(shape(await read(wf, imported)));
    // The import's toasts come with the switch to the new workflow, so once its canvas shows (the old one's Fn gone) they would be there.
    await page.waitForFunction((node) => !node.isConnected, shownFn);
    await fnNode.waitFor();
    expect(await toast(page, 'round-trip.yaml:').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('a refused YAML import says why in §8 words and leaves no workflow behind', async () => {
    const wf = await newWorkflow('YAML refused');
    const { page, errors } = await wf.open(chromium());
    const before = (await listed(wf)).map((w) => w.id).sort();
    await importYaml(page, 'broken.yaml', 'version: "1.0"\nblocks: [this is: not, a map\n');
    await toast(page, 'Failed to import workflow: ').waitFor();
    // The workflow made for it is deleted again.
    await expect.poll(async () => (await listed(wf)).map((w) => w.id).sort()).toEqual(before);
    expect(new URL(page.url()).searchParams.get('workflow')).toBe(wf.workflowId);
    expect(errors).toEqual([]);
  });

  it('copies the deployment API key, and reverts the draft to the deployed version once confirmed', async () => {
    const wf = await newWorkflow('Deployer');
    const { page, errors } = await wf.open(chromium());
    const origin = new URL(page.url()).origin;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Deploy' });
    await dialog.getByRole('button', { name: 'Deploy', exact: true }).click();
    await dialog.getByText('Deployed', { exact: true }).waitFor();

    // The API key: the one the deployment has, copied as it is.
    const key = dialog.getByRole('textbox', { name: 'Deployment API key' });
    await key.waitFor();
    const apiKey = (await wf.call<{ apiKey: string }>('GET', `/api/workflows/${wf.workflowId}/deploy`)).body.apiKey;
    expect(apiKey).toBeTruthy();
    expect(await key.inputValue()).toBe(apiKey);
    await dialog.getByRole('button', { name: 'Copy API key' }).click();
    await expect.poll(() => page.evaluate<string>('navigator.clipboard.readText()')).toBe(apiKey);

    // An edit after the deploy: "Changes not deployed", and Revert is offered.
    const edit = await wf.call('POST', `/api/workflows/${wf.workflowId}/commands`, { commands: [{ type: 'addBlock', id: 'later', blockType: 'function', name: 'Later', position: { x: 400, y: 0 } }] });
    expect(edit.status).toBe(200);
    await dialog.getByText('Changes not deployed').waitFor();
    const revert = dialog.getByRole('button', { name: 'Revert draft to deployed' });
    await expect.poll(() => revert.isEnabled()).toBe(true);

    // Asked first: Cancel keeps the draft.
    await revert.click();
    const ask = page.getByRole('alertdialog', { name: 'Revert the draft to the deployed version?' });
    await ask.getByText('The changes made since the last deploy are replaced by the deployed version.').waitFor();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    expect((await read(wf, wf.workflowId)).blocks.later?.name).toBe('Later');

    // Confirmed: the draft is the deployed one again, on the server and on the canvas.
    await revert.click();
    await ask.getByRole('button', { name: 'Revert', exact: true }).click();
    await expect.poll(async () => (await read(wf, wf.workflowId)).blocks.later).toBeUndefined();
    await page.locator('.react-flow__node[data-id="later"]').waitFor({ state: 'detached' });
    await dialog.getByText('Changes not deployed').waitFor({ state: 'detached' });
    await dialog.getByRole('button', { name: 'Up to date' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('a refused deploy and a failed undeploy say so in §8 words', async () => {
    // Another account's deployed workflow holds the webhook path this one asks for.
    const path = `hooks/shared-${uniqueSuffix()}`;
    const holder = await newWorkflow('Path holder');
    const hook = [
      { type: 'setSubBlockValue', id: holder.starter, subBlockId: 'startWorkflow', value: 'webhook' },
      { type: 'setSubBlockValue', id: holder.starter, subBlockId: 'webhookPath', value: path },
    ];
    expect((await holder.call('POST', `/api/workflows/${holder.workflowId}/commands`, { commands: hook })).status).toBe(200);
    expect((await holder.call('POST', `/api/workflows/${holder.workflowId}/deploy`, {})).status).toBeLessThan(300);

    const wf = await newWorkflow('Path taker');
    const mine = hook.map((c) => ({ ...c, id: wf.starter }));
    expect((await wf.call('POST', `/api/workflows/${wf.workflowId}/commands`, { commands: mine })).status).toBe(200);
    const { page, errors } = await wf.open(chromium());
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Deploy' });
    // The URL shown is the one the path is called at, each segment escaped on its own (the slash stays).
    expect(await dialog.getByRole('textbox', { name: 'Webhook URL' }).inputValue()).toBe(`${new URL(page.url()).origin}/api/webhooks/trigger/${path}`);
    await dialog.getByRole('button', { name: 'Deploy', exact: true }).click();
    await toast(page, `Failed to deploy workflow: `).filter({ hasText: `Webhook path "${path}" is already used by another workflow` }).waitFor();
    expect((await wf.call<{ isDeployed: boolean }>('GET', `/api/workflows/${wf.workflowId}/deploy`)).body.isDeployed).toBe(false);

    // With a path of its own it deploys; an undeploy the server fails keeps it deployed and says why.
    const own = await wf.call('POST', `/api/workflows/${wf.workflowId}/commands`, { commands: [{ ...mine[1], value: `${path}-own` }] });
    expect(own.status).toBe(200);
    await expect.poll(() => dialog.getByRole('textbox', { name: 'Webhook URL' }).inputValue()).toMatch(/-own$/);
    await dialog.getByRole('button', { name: 'Deploy', exact: true }).click();
    await dialog.getByText('Deployed', { exact: true }).waitFor();
    await page.route(`**/api/workflows/${wf.workflowId}/deploy`, (route) =>
      route.request().method() === 'DELETE' ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'the registry is down' }) }) : route.fallback(),
    );
    await dialog.getByRole('button', { name: 'Undeploy' }).click();
    await page.getByRole('alertdialog', { name: 'Undeploy the workflow?' }).getByRole('button', { name: 'Undeploy' }).click();
    await toast(page, 'Failed to undeploy workflow: the registry is down').waitFor();
    await dialog.getByText('Deployed', { exact: true }).waitFor();
    expect(errors).toEqual([]);
  });

  it('lists a workflow without a starter block as a problem of the whole workflow, with no block button; a cycle keeps its block button', async () => {
    const wf = await newWorkflow('Starterless');
    const commands = [
      { type: 'addBlock', id: 'fn', blockType: 'function', name: 'Fn', position: { x: 300, y: 100 } },
      { type: 'setSubBlockValue', id: 'fn', subBlockId: 'code', value: 'return 1' },
      { type: 'addBlock', id: 'parse', blockType: 'function', name: 'Parse', position: { x: 600, y: 100 } },
      { type: 'setSubBlockValue', id: 'parse', subBlockId: 'code', value: 'return 2' },
      { type: 'addEdge', source: 'fn', target: 'parse' },
      { type: 'addEdge', source: 'parse', target: 'fn' },
    ];
    expect((await wf.call('POST', `/api/workflows/${wf.workflowId}/commands`, { commands })).status).toBe(200);
    // Opened with its starter (as a page waits for), which is then deleted: the open page follows.
    const { page, errors } = await wf.open(chromium());
    expect((await wf.call('POST', `/api/workflows/${wf.workflowId}/commands`, { commands: [{ type: 'removeBlock', id: wf.starter }] })).status).toBe(200);
    await page.locator('.react-flow__node.block-starter').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    const problems = page.getByRole('dialog', { name: 'Deploy' }).getByRole('region', { name: 'Problems' });
    const item = problems.getByRole('listitem').filter({ hasText: 'The workflow has no starter block' });
    await item.waitFor();
    // Its message alone: no button (a blank block name), nor the ': ' that joins a block's name to its message.
    expect(await item.innerText()).toBe('The workflow has no starter block');
    // The cycle's problem keeps the button of its first block.
    await problems.getByRole('listitem').filter({ hasText: 'The workflow has a cycle outside a loop block: Fn → Parse → Fn' }).waitFor();
    expect(await problems.getByRole('button').allInnerTexts()).toEqual(['Fn']);
    expect(await page.getByRole('dialog', { name: 'Deploy' }).getByRole('button', { name: 'Deploy', exact: true }).isDisabled()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('drops a block into a loop nested in a parallel: the block is the loop’s, the loop stays the parallel’s', async () => {
    const wf = await newWorkflow<ServerState>('Nested containers');
    const containers = await wf.call('POST', `/api/workflows/${wf.workflowId}/commands`, {
      commands: [
        { type: 'addBlock', id: 'outer', blockType: 'parallel', name: 'Branches', position: { x: 400, y: 0 }, data: { width: 900, height: 600 } },
        { type: 'addBlock', id: 'inner', blockType: 'loop', name: 'Rounds', position: { x: 150, y: 150 }, parentId: 'outer', data: { width: 500, height: 320 } },
      ],
    });
    expect(containers.status).toBe(200);
    const { page, errors } = await wf.open(chromium());
    const node = (id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
    await node('inner').waitFor();
    const agent = await addFromPalette(page, 'Agent', 'agent');
    await fitView(page);
    const loopBox = await stableBox(node('inner'));
    const agentBox = await stableBox(node(agent));
    await drag(page, node(agent), { x: loopBox.x + loopBox.width / 2 - (agentBox.x + agentBox.width / 2), y: loopBox.y + loopBox.height / 2 - (agentBox.y + agentBox.height / 2) });
    await expect.poll(async () => (await wf.state()).blocks[agent]?.data.parentId).toBe('inner');
    expect((await wf.state()).blocks.inner?.data.parentId).toBe('outer');
    // On the canvas it is drawn inside the inner loop.
    const dropped = await stableBox(node(agent));
    const loopNow = await stableBox(node('inner'));
    expect(dropped.x).toBeGreaterThanOrEqual(loopNow.x);
    expect(dropped.y).toBeGreaterThanOrEqual(loopNow.y);
    expect(dropped.x + dropped.width).toBeLessThanOrEqual(loopNow.x + loopNow.width);
    expect(dropped.y + dropped.height).toBeLessThanOrEqual(loopNow.y + loopNow.height);
    expect(errors).toEqual([]);
  });
});
