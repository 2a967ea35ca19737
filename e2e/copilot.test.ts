/**
 * The copilot end to end: gateway → copilot service (Temporal turn) → integrations (model layer) → the
 * OpenAI fake scripted to call the copilot's tools; the edit lands through the editor and reaches two
 * open browsers live.
 */
import { describe, expect, inject, it } from 'vitest';
import { AGENT_AND_SLACK_YAML, uniqueSuffix } from '@weft/testkit';
import { chromiumPerSuite } from './support/browser.js';
import type { WorkflowAnswer } from './support/canvas.js';
import { converged, openWorkflow } from './support/editing.js';
import { api, defaultCookie } from './support/http.js';
import { createAccount } from './support/accounts.js';
import { modelChats, scriptModel } from './support/modelScripts.js';

type StreamEvent = { type: string; [key: string]: unknown };

/** POST /api/copilot/chat, read to its end: the `data:` events in order. */
async function chat(body: Record<string, unknown>): Promise<{ status: number; events: StreamEvent[] }> {
  const res = await fetch(`${inject('weftUrl')}/api/copilot/chat`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: await defaultCookie() }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) return { status: res.status, events: [JSON.parse(text) as StreamEvent] };
  const events = text
    .split('\n\n')
    .map((block) => block.split('\n').find((l) => l.startsWith('data: ')))
    .filter((l): l is string => l !== undefined)
    .map((l) => JSON.parse(l.slice(6)) as StreamEvent);
  return { status: res.status, events };
}

async function newWorkflow(): Promise<string> {
  const ws = await api<{ workspaces: Array<{ id: string }> }>('GET', '/api/workspaces');
  const created = await api<{ id: string }>('POST', '/api/workflows', { workspaceId: ws.body.workspaces[0]?.id });
  expect(created.status).toBe(201);
  return created.body.id;
}

const readWorkflow = async (id: string) => (await api<{ data: WorkflowAnswer }>('GET', `/api/workflows/${id}`)).body.data;

describe('copilot through the gateway', () => {
  const chromium = chromiumPerSuite();

  it('a chat that adds an agent and a Slack block: streamed, live in two browsers, stored, and reverted from its checkpoint', async () => {
    const workflowId = await newWorkflow();
    const before = await readWorkflow(workflowId);
    expect((await api('POST', '/api/environment', { variables: { OPENAI_API_KEY: 'sk-copilot-e2e' } })).status).toBe(200);
    const cookie = await defaultCookie();
    const [a, b] = await Promise.all([openWorkflow(chromium(), cookie, workflowId), openWorkflow(chromium(), cookie, workflowId)]);
    const marker = `[copilot-${uniqueSuffix()}]`;
    await scriptModel(marker, [
      { toolCalls: [{ name: 'get_user_workflow', arguments: {} }] },
      { toolCalls: [{ name: 'edit_workflow', arguments: { yamlContent: AGENT_AND_SLACK_YAML, description: 'Writer posts to Slack' } }] },
      { content: 'I added a Writer agent that posts to Slack.' },
    ]);

    const { status, events } = await chat({ workflowId, message: `Add an agent that posts to Slack ${marker}` });
    expect(status).toBe(200);
    expect(events[0]).toMatchObject({ type: 'start', provider: 'openai', model: 'gpt-4o' });
    const chatId = String(events[0]?.chatId);
    expect(events.filter((e) => e.type === 'content').map((e) => e.data).join('')).toBe('I added a Writer agent that posts to Slack.');
    expect(events.filter((e) => e.type === 'tool_call' && e.toolName === 'edit_workflow').map((e) => e.state)).toEqual(['detecting', 'executing', 'completed']);
    const done = events.at(-1);
    expect(done).toMatchObject({ type: 'done', chatId, content: 'I added a Writer agent that posts to Slack.' });
    const [checkpointId] = (done?.checkpointIds as string[] | undefined) ?? [];
    expect(events.some((e) => e.type === 'checkpoint' && e.checkpointId === checkpointId)).toBe(true);

    const after = await converged([a.page, b.page], () => readWorkflow(workflowId));
    expect(Object.keys(after.state.blocks).sort()).toEqual(['notify', 'start', 'writer']);
    expect(after.state.edges.map((e) => `${e.source}->${e.target}`).sort()).toEqual(['start->writer', 'writer->notify']);
    const sent = await modelChats<{ authorization: string | null; body: { messages: Array<{ content: unknown }> } }>();
    const mine = sent.filter((c) => JSON.stringify(c.body.messages).includes(marker));
    expect(mine.map((c) => c.authorization)).toEqual(['Bearer sk-copilot-e2e', 'Bearer sk-copilot-e2e', 'Bearer sk-copilot-e2e']);

    const list = await api<{ chats: Array<{ id: string }> }>('GET', `/api/copilot/chats?workflowId=${workflowId}`);
    expect(list.body.chats.map((c) => c.id)).toEqual([chatId]);
    const got = await api<{ chat: { messages: Array<{ role: string }>; checkpoints: Array<{ id: string }> } }>('GET', `/api/copilot/chats/${chatId}`);
    expect(got.body.chat.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    expect(got.body.chat.checkpoints.map((c) => c.id)).toEqual([checkpointId]);

    const reverted = await api('POST', `/api/copilot/checkpoints/${checkpointId}/revert`);
    expect(reverted.status).toBe(200);
    const back = await converged([a.page, b.page], () => readWorkflow(workflowId));
    expect(Object.keys(back.state.blocks).sort()).toEqual(Object.keys(before.state.blocks).sort());
    expect(a.errors).toEqual([]);
  });

  it('the panel in Chromium: asks, shows the streamed answer and tool states, and reverts from its checkpoint', async () => {
    const workflowId = await newWorkflow();
    const before = await readWorkflow(workflowId);
    const marker = `[copilot-${uniqueSuffix()}]`;
    await scriptModel(marker, [
      { toolCalls: [{ name: 'edit_workflow', arguments: { yamlContent: AGENT_AND_SLACK_YAML } }] },
      { content: 'Your workflow now posts to Slack.' },
    ]);
    const { page } = await openWorkflow(chromium(), await defaultCookie(), workflowId);
    const panel = page.getByRole('region', { name: 'Copilot' });
    await panel.getByLabel('Ask the copilot').fill(`Post the summary to Slack ${marker}`);
    await panel.getByRole('button', { name: 'Send' }).click();
    await panel.getByText('Your workflow now posts to Slack.').waitFor({ timeout: 60_000 });
    await panel.locator('.tool-completed[data-tool="edit_workflow"]').getByText('Building your workflow').waitFor();
    const edited = await converged([page], () => readWorkflow(workflowId));
    expect(Object.keys(edited.state.blocks).sort()).toEqual(['notify', 'start', 'writer']);
    await panel.getByRole('button', { name: 'Revert to before this edit' }).click();
    await panel.getByRole('button', { name: 'Reverted' }).waitFor();
    const back = await converged([page], () => readWorkflow(workflowId));
    expect(Object.keys(back.state.blocks).sort()).toEqual(Object.keys(before.state.blocks).sort());
  });

  it('a proposed edit is a diff until accepted', async () => {
    const workflowId = await newWorkflow();
    const marker = `[copilot-${uniqueSuffix()}]`;
    await scriptModel(marker, [{ toolCalls: [{ name: 'edit_workflow', arguments: { yamlContent: AGENT_AND_SLACK_YAML } }] }, { content: 'See the diff.' }]);
    const { events } = await chat({ workflowId, message: `Propose a Slack step ${marker}`, propose: true });
    const proposal = events.find((e) => e.type === 'proposal');
    expect(proposal?.diff).toMatchObject({ blocks: { added: [{ id: 'start' }, { id: 'writer' }, { id: 'notify' }] } });
    expect(Object.keys((await readWorkflow(workflowId)).state.blocks)).not.toContain('notify');
    const accepted = await api<{ proposal: { status: string } }>('POST', `/api/copilot/proposals/${String(proposal?.proposalId)}`, { action: 'accept' });
    expect(accepted.body.proposal.status).toBe('accepted');
    expect(Object.keys((await readWorkflow(workflowId)).state.blocks).sort()).toEqual(['notify', 'start', 'writer']);
    const again = await api<{ error: string }>('POST', `/api/copilot/proposals/${String(proposal?.proposalId)}`, { action: 'reject' });
    expect(again.status).toBe(409);
  });

  it('stops a turn in progress: the stream ends cancelled with the partial answer, stored as stopped; the chat goes on; ended, unknown and others’ turns are refused', async () => {
    const workflowId = await newWorkflow();
    const marker = `[copilot-${uniqueSuffix()}]`;
    const answer = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
    await scriptModel(marker, [{ content: answer, sseIntervalMs: 150 }, { content: 'Carrying on.' }]);
    const cookie = await defaultCookie();
    const res = await fetch(`${inject('weftUrl')}/api/copilot/chat`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ workflowId, message: `Write a long answer ${marker}` }) });
    expect(res.status).toBe(200);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const events: StreamEvent[] = [];
    let buffer = '';
    /** Reads the stream until `until` holds for the events so far (or the stream ends). */
    const readUntil = async (until: () => boolean) => {
      while (!until()) {
        const { value, done } = await reader.read();
        if (done) return;
        const blocks = (buffer + value).split('\n\n');
        buffer = blocks.pop() ?? '';
        for (const block of blocks) {
          const line = block.split('\n').find((l) => l.startsWith('data: '));
          if (line) events.push(JSON.parse(line.slice(6)) as StreamEvent);
        }
      }
    };
    await readUntil(() => events.filter((e) => e.type === 'content').length >= 3);
    const chatId = String(events[0]?.chatId);
    const turnId = String(events[0]?.turnId);
    const cancelPath = (chat: string, turn: string) => `/api/copilot/chats/${chat}/turns/${turn}/cancel`;

    const stranger = await createAccount('Stopper');
    const theirs = await api<{ error: string }>('POST', cancelPath(chatId, turnId), undefined, { cookie: stranger.cookie });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toBe(`Chat ${chatId} not found`);
    const unknown = await api<{ error: string }>('POST', cancelPath(chatId, 'no-such-turn'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('Turn no-such-turn not found');
    expect((await api('POST', cancelPath('no-such-chat', turnId))).status).toBe(404);

    const stopped = await api<{ success: boolean; turnId: string }>('POST', cancelPath(chatId, turnId));
    expect(stopped.status).toBe(202);
    expect(stopped.body).toMatchObject({ success: true, turnId });
    await readUntil(() => false);
    const end = events.at(-1);
    expect(end).toMatchObject({ type: 'cancelled', chatId, turnId });
    const partial = String(end?.content);
    expect(partial).toMatch(/^word0 word1 word2/);
    expect(partial.length).toBeLessThan(answer.length);
    expect(events.filter((e) => e.type === 'content').map((e) => e.data).join('')).toBe(partial);
    expect(events.some((e) => e.type === 'done' || e.type === 'error')).toBe(false);
    // The model provider saw its stream closed before the answer's end.
    const sent = await modelChats<{ abandoned: boolean; body: { messages: unknown[] } }>();
    expect(sent.filter((c) => JSON.stringify(c.body.messages).includes(marker)).map((c) => c.abandoned)).toEqual([true]);

    const stored = await api<{ chat: { messages: Array<{ role: string; content: string; status?: string }> } }>('GET', `/api/copilot/chats/${chatId}`);
    expect(stored.body.chat.messages.map((m) => [m.role, m.status ?? null])).toEqual([
      ['user', null],
      ['assistant', 'stopped'],
    ]);
    expect(stored.body.chat.messages[1]?.content).toBe(partial);
    const again = await api<{ error: string }>('POST', cancelPath(chatId, turnId));
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(`Turn ${turnId} has already ended`);

    const next = await chat({ workflowId, chatId, message: `Go on ${marker}` });
    expect(next.events.at(-1)).toMatchObject({ type: 'done', chatId, content: 'Carrying on.' });
  });

  it('PUT /api/workflows/{id}/yaml with chatId and createCheckpoint keeps a checkpoint in that chat, revertible; without chatId only the editor’s Undo', async () => {
    const workflowId = await newWorkflow();
    const before = await readWorkflow(workflowId);
    expect((await api('POST', '/api/environment', { variables: { OPENAI_API_KEY: 'sk-copilot-e2e' } })).status).toBe(200);
    const marker = `[copilot-${uniqueSuffix()}]`;
    await scriptModel(marker, [{ content: 'Hello.' }]);
    const chatId = String((await chat({ workflowId, message: `Hi ${marker}` })).events[0]?.chatId);
    const put = (body: Record<string, unknown>, headers?: { cookie: string }) => api<{ success: boolean; message: string; checkpointId?: string }>('PUT', `/api/workflows/${workflowId}/yaml`, body, headers);

    const saved = await put({ yamlContent: AGENT_AND_SLACK_YAML, description: 'Writer posts to Slack', chatId, source: 'copilot', applyAutoLayout: true, createCheckpoint: true });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ success: true, message: 'Workflow saved from YAML: 3 blocks, 2 connections' });
    const checkpointId = saved.body.checkpointId ?? '';
    const stored = await api<{ chat: { checkpoints: Array<{ id: string; description: string }> } }>('GET', `/api/copilot/chats/${chatId}`);
    expect(stored.body.chat.checkpoints).toMatchObject([{ id: checkpointId, description: 'Writer posts to Slack' }]);
    expect((await api('POST', `/api/copilot/checkpoints/${checkpointId}/revert`)).status).toBe(200);
    expect(Object.keys((await readWorkflow(workflowId)).state.blocks).sort()).toEqual(Object.keys(before.state.blocks).sort());

    // Another account's chat, a chat of another workflow, bad YAML.
    const other = await newWorkflow();
    const stranger = await createAccount('Yaml stranger');
    expect([403, 404]).toContain((await api('PUT', `/api/workflows/${workflowId}/yaml`, { yamlContent: AGENT_AND_SLACK_YAML, chatId, createCheckpoint: true }, { cookie: stranger.cookie })).status);
    const elsewhere = await api<{ error?: string; message?: string }>('PUT', `/api/workflows/${other}/yaml`, { yamlContent: AGENT_AND_SLACK_YAML, chatId, createCheckpoint: true });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.message ?? elsewhere.body.error).toBe('chatId belongs to another workflow');
    const bad = await put({ yamlContent: 'blocks: [', chatId, createCheckpoint: true });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, message: expect.stringMatching(/^Invalid YAML/) });

    // Without chatId: imported, no checkpoint anywhere; Undo brings the graph back.
    expect((await put({ yamlContent: AGENT_AND_SLACK_YAML, createCheckpoint: true })).body).toMatchObject({ success: true });
    expect((await api<{ chat: { checkpoints: unknown[] } }>('GET', `/api/copilot/chats/${chatId}`)).body.chat.checkpoints).toHaveLength(1);
    expect(Object.keys((await readWorkflow(workflowId)).state.blocks)).toHaveLength(3);
    expect((await api('POST', `/api/workflows/${workflowId}/commands`, { commands: [{ type: 'undo' }] })).status).toBe(200);
    expect(Object.keys((await readWorkflow(workflowId)).state.blocks).sort()).toEqual(Object.keys(before.state.blocks).sort());

    // A chat's save answers what the import left out (a second starter), as the plain save does.
    const twoStarters = await put({ yamlContent: `${AGENT_AND_SLACK_YAML.trimEnd()}\n  again:\n    type: starter\n    name: Start 2\n`, chatId, createCheckpoint: true });
    expect(twoStarters.body).toMatchObject({ success: true, checkpointId: expect.any(String), warnings: [expect.stringMatching(/^Left out starter block "Start 2" \(again\): /)] });
  });

  it('refuses bad requests naming the field, and other accounts', async () => {
    const workflowId = await newWorkflow();
    const missing = await chat({ message: 'hi' });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.events[0])).toContain('workflowId is required');
    const empty = await chat({ workflowId, message: '  ' });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.events[0])).toContain('message is required');
    const provider = await chat({ workflowId, message: 'hi', provider: 'nope' });
    expect(provider.status).toBe(400);
    expect(JSON.stringify(provider.events[0])).toContain('provider must be one of');
    const stranger = await createAccount('Stranger');
    const theirs = await api('GET', `/api/copilot/chats?workflowId=${workflowId}`, undefined, { cookie: stranger.cookie });
    expect([403, 404]).toContain(theirs.status);
    expect((await api('GET', '/api/copilot/chats')).status).toBe(400);
    expect((await api('POST', '/api/copilot/checkpoints/nope/revert')).status).toBe(404);
  });
});
