/**
 * Chat turns on a real Temporal server and NATS, with the model layer's own callModel speaking to the
 * OpenAI fake, scripted to call the copilot's tools the way a model would. With WEFT_WRITE_HISTORIES
 * set, the turns' histories are kept for the worker's replay test (workflows/replay.int.test.ts).
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_AND_SLACK_YAML, type RecordedRequest } from '@weft/testkit';
import { keepHistory } from '@weft/testkit/histories';
import { startCopilotHarness, type CopilotHarness } from './testing/harness.js';
import { COPILOT_MAX_ITERATIONS, TOOL_NOT_RUN } from './workflows/copilotTurn.workflow.js';

const START_ONLY = `version: "1.0"
blocks:
  start:
    type: starter
    name: Start
`;

type ChatBody = { messages: Array<{ role: string; content?: string | null; tool_call_id?: string }>; tools?: Array<{ function: { name: string } }> };
const bodyOf = (req: RecordedRequest) => req.body as ChatBody;
const toolMessages = (req: RecordedRequest) => bodyOf(req).messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
/** Histories of `copilotTurn` replayed by workflows/replay.int.test.ts. */
const historiesDir = fileURLToPath(new URL('./workflows/histories/', import.meta.url));

describe('copilot chat loop (Temporal, NATS, the OpenAI fake behind the model layer)', () => {
  let h: CopilotHarness;
  let n = 0;
  const workflowId = () => `wf-${++n}`;
  /** Keeps the (ended) turn's history as `<name>.json` when WEFT_WRITE_HISTORIES is set. */
  const keep = (turnId: string, name: string) => keepHistory(h.turnHandle(turnId), historiesDir, name);
  /**
   * Holds the editor's state reads (an `edit_workflow` call running) until `release()`; `editing` says
   * when one is held; `restore()` puts the editor's own reads back and lets any held one go.
   */
  const holdEditorReads = () => {
    const getState = h.editor.getState;
    let reached!: () => void;
    let release!: () => void;
    const editing = new Promise<void>((resolve) => (reached = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    h.editor.getState = async (id) => {
      reached();
      await released;
      return getState.call(h.editor, id);
    };
    return {
      editing,
      release,
      restore() {
        h.editor.getState = getState;
        release();
      },
    };
  };

  beforeAll(async () => {
    h = await startCopilotHarness();
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => {
    h.fake.reset();
    h.fake.fallback({ content: 'Hello from the fake model.' });
    for (const key of Object.keys(h.env)) delete h.env[key];
  });

  it('adds an agent and a Slack block connected to it, as one undoable edit, streaming text and tool states', async () => {
    h.env.OPENAI_API_KEY = 'sk-workspace';
    const wf = workflowId();
    h.fake.reply(
      { toolCalls: [{ name: 'get_user_workflow', arguments: {} }] },
      { toolCalls: [{ name: 'get_blocks_metadata', arguments: { blockIds: ['agent', 'slack'] } }] },
      { toolCalls: [{ name: 'edit_workflow', arguments: { yamlContent: AGENT_AND_SLACK_YAML, description: 'Add a writer that posts to Slack' } }] },
      { content: 'I added a Writer agent that posts its summary to Slack.' },
    );
    const { result, feed, chatId, turnId } = await h.chat({ workflowId: wf, message: 'Add an agent that summarises the input and posts it to Slack' });
    await keep(turnId, 'turn-edit');

    expect(result.error).toBeUndefined();
    expect(result.content).toBe('I added a Writer agent that posts its summary to Slack.');
    const state = h.editor.state(wf);
    expect(Object.values(state.blocks).map((b) => [b.id, b.type]).sort()).toEqual([['notify', 'slack'], ['start', 'starter'], ['writer', 'agent']]);
    expect(state.edges.map((e) => `${e.source}->${e.target}`).sort()).toEqual(['start->writer', 'writer->notify']);
    expect(state.blocks.notify?.subBlocks.channel?.value).toBe('C123');
    expect(h.editor.applied.filter((a) => a.workflowId === wf).map((a) => a.types)).toEqual([['importYaml']]);
    expect(state.history.present.action).toBe('Add a writer that posts to Slack');
    expect(result.checkpointIds).toHaveLength(1);

    const requests = h.fake.chatRequests();
    expect(requests).toHaveLength(4);
    expect(requests[0]?.headers.authorization).toBe('Bearer sk-workspace');
    expect(bodyOf(requests[0]!).tools?.map((t) => t.function.name)).toEqual(['get_blocks_and_tools', 'get_blocks_metadata', 'get_yaml_structure', 'edit_workflow', 'get_user_workflow', 'get_last_run']);
    const system = bodyOf(requests[0]!).messages[0];
    expect(system?.role).toBe('system');
    expect(system?.content).toContain('slack (Slack');
    expect(system?.content).toContain('connections name target block ids');
    expect(toolMessages(requests[2]!).at(-1)).toContain('"slack_message"');

    await expect.poll(() => feed.text()).toContain('I added a Writer agent that posts its summary to Slack.');
    await expect.poll(() => feed.toolStates().filter((s) => s.name === 'edit_workflow').map((s) => s.state)).toEqual(['detecting', 'executing', 'completed']);
    expect(feed.events.some((e) => e.type === 'checkpoint' && e.checkpointId === result.checkpointIds[0])).toBe(true);
    feed.close();

    const messages = await h.store.messages(chatId);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    expect(messages.at(-1)?.content).toBe('I added a Writer agent that posts its summary to Slack.');
  });

  it('gives invalid YAML back to the model with its line and message, and the corrected YAML lands', async () => {
    const wf = workflowId();
    const broken = AGENT_AND_SLACK_YAML.replace('type: slack', 'type: not_a_block');
    h.fake.reply(
      { toolCalls: [{ name: 'edit_workflow', arguments: { yamlContent: broken } }] },
      (req) => {
        const last = toolMessages(req).at(-1) ?? '';
        // The model corrects itself only when it was told what failed and where.
        return /Edit workflow failed: Invalid YAML at line \d+/.test(last) ? { toolCalls: [{ name: 'edit_workflow', arguments: { yamlContent: AGENT_AND_SLACK_YAML } }] } : { content: 'I could not tell what failed.' };
      },
      { content: 'Fixed the block type.' },
    );
    const { result, feed, turnId } = await h.chat({ workflowId: wf, message: 'Add a Slack notification' });
    await keep(turnId, 'turn-tool-error');
    expect(result.toolCalls.map((c) => [c.name, c.state])).toEqual([
      ['edit_workflow', 'error'],
      ['edit_workflow', 'completed'],
    ]);
    expect(result.toolCalls[0]?.error).toMatch(/^Edit workflow failed: Invalid YAML at line 19: /);
    expect(result.content).toBe('Fixed the block type.');
    expect(Object.keys(h.editor.state(wf).blocks).sort()).toEqual(['notify', 'start', 'writer']);
    await expect.poll(() => feed.toolStates().filter((s) => s.state === 'error').length).toBe(1);
    feed.close();
  });

  it('reverts to the checkpoint taken before the edit', async () => {
    const wf = workflowId();
    await h.editor.execute(wf, 'user-1', [{ type: 'importYaml', yamlContent: START_ONLY }]);
    h.fake.reply({ toolCalls: [{ name: 'edit_workflow', arguments: { yamlContent: AGENT_AND_SLACK_YAML } }] }, { content: 'Done.' });
    const { result, chatId } = await h.chat({ workflowId: wf, message: 'Add a Slack notification' });
    expect(Object.keys(h.editor.state(wf).blocks)).toHaveLength(3);
    const [checkpointId] = result.checkpointIds;
    expect((await h.store.checkpoints(chatId)).map((c) => c.id)).toEqual([checkpointId]);
    await h.turns.revert(checkpointId!, 'user-1');
    expect(Object.keys(h.editor.state(wf).blocks)).toEqual(['start']);
    expect(h.editor.state(wf).edges).toEqual([]);
  });

  it('saves YAML given from outside a turn as an edit of a chat (PUT /api/workflows/{id}/yaml with chatId): a checkpoint of that chat, revertible', async () => {
    const wf = workflowId();
    await h.editor.execute(wf, 'user-1', [{ type: 'importYaml', yamlContent: START_ONLY }]);
    h.fake.reply({ content: 'Hello.' });
    const { chatId } = await h.chat({ workflowId: wf, message: 'Hi' });
    const saved = await h.turns.saveYamlInChat({ chatId, workflowId: wf, actorId: 'user-1', yamlContent: AGENT_AND_SLACK_YAML, description: 'Add Slack', applyAutoLayout: true });
    expect(saved).toMatchObject({ blocks: 3, edges: 2, checkpointId: expect.stringMatching(/^cp_yaml_/) });
    expect(Object.keys(h.editor.state(wf).blocks).sort()).toEqual(['notify', 'start', 'writer']);
    expect(await h.store.checkpoints(chatId)).toMatchObject([{ id: saved.checkpointId, workflowId: wf, description: 'Add Slack' }]);
    await h.turns.revert(saved.checkpointId, 'user-1');
    expect(Object.keys(h.editor.state(wf).blocks)).toEqual(['start']);
    // Someone else's chat is not found; a chat of another workflow is refused naming chatId; bad YAML imports nothing.
    const input = { chatId, workflowId: wf, yamlContent: AGENT_AND_SLACK_YAML, applyAutoLayout: false };
    await expect(h.turns.saveYamlInChat({ ...input, actorId: 'user-2' })).rejects.toThrow(`Chat ${chatId} not found`);
    await expect(h.turns.saveYamlInChat({ ...input, workflowId: workflowId(), actorId: 'user-1' })).rejects.toThrow('chatId belongs to another workflow');
    await expect(h.turns.saveYamlInChat({ ...input, yamlContent: 'blocks: [', actorId: 'user-1' })).rejects.toThrow(/Invalid YAML/);
    expect(Object.keys(h.editor.state(wf).blocks)).toEqual(['start']);
    expect((await h.store.checkpoints(chatId)).map((c) => c.id)).toEqual([saved.checkpointId]);
  });

  it('proposes an edit as a diff; accepting applies it with a checkpoint, a decided proposal cannot be decided again', async () => {
    const wf = workflowId();
    await h.editor.execute(wf, 'user-1', [{ type: 'importYaml', yamlContent: START_ONLY }]);
    h.fake.reply({ toolCalls: [{ name: 'edit_workflow', arguments: { yamlContent: AGENT_AND_SLACK_YAML, description: 'Writer to Slack' } }] }, { content: 'Have a look at the diff.' });
    const { result, feed, turnId } = await h.chat({ workflowId: wf, message: 'Add a Slack notification', propose: true });
    await keep(turnId, 'turn-proposal');
    expect(Object.keys(h.editor.state(wf).blocks)).toEqual(['start']);
    const [proposalId] = result.proposalIds;
    const proposal = await h.store.proposal(proposalId!);
    expect(proposal.status).toBe('pending');
    expect(proposal.diff).toEqual({
      blocks: { added: [{ id: 'writer', type: 'agent', name: 'Writer' }, { id: 'notify', type: 'slack', name: 'Notify' }], removed: [], changed: [] },
      edges: { added: [{ source: 'start', target: 'writer' }, { source: 'writer', target: 'notify' }], removed: [] },
    });
    await expect.poll(() => feed.events.filter((e) => e.type === 'proposal').length).toBe(1);
    feed.close();

    const accepted = await h.turns.decide(proposalId!, 'user-1', true);
    expect(accepted.status).toBe('accepted');
    expect(Object.keys(h.editor.state(wf).blocks).sort()).toEqual(['notify', 'start', 'writer']);
    await expect(h.turns.decide(proposalId!, 'user-1', false)).rejects.toThrow(`Proposal ${proposalId} was already accepted`);
    await h.turns.revert(accepted.checkpointId!, 'user-1');
    expect(Object.keys(h.editor.state(wf).blocks)).toEqual(['start']);
  });

  it('ends the turn with the provider error, stored in the chat', async () => {
    const wf = workflowId();
    h.fake.reply({ error: { status: 401, message: 'Incorrect API key provided' } });
    const { result, chatId, turnId } = await h.chat({ workflowId: wf, message: 'Hello' });
    await keep(turnId, 'turn-provider-error');
    // The model layer's message for a provider's refusal: status and the provider's own words.
    expect(result.error).toBe('401 Incorrect API key provided');
    expect((await h.store.messages(chatId)).at(-1)).toMatchObject({ role: 'assistant', content: 'Error: 401 Incorrect API key provided', status: 'error' });
  });

  it(`stops after ${COPILOT_MAX_ITERATIONS} model rounds when the model keeps calling tools`, async () => {
    const wf = workflowId();
    h.fake.fallback({ toolCalls: [{ name: 'get_yaml_structure', arguments: {} }] });
    const { result, turnId } = await h.chat({ workflowId: wf, message: 'Loop forever' });
    await keep(turnId, 'turn-round-limit');
    expect(h.fake.chatRequests()).toHaveLength(COPILOT_MAX_ITERATIONS);
    expect(result.toolCalls).toHaveLength(COPILOT_MAX_ITERATIONS);
    expect(result.toolCalls.every((c) => c.state === 'completed')).toBe(true);
  });

  it('continues a chat with its history, and refuses a chat of another workflow naming the field', async () => {
    const wf = workflowId();
    const first = await h.chat({ workflowId: wf, message: 'First question' });
    await keep(first.turnId, 'turn-answer');
    const next = await h.chat({ workflowId: wf, message: 'Second question', chatId: first.chatId });
    await keep(next.turnId, 'turn-continued');
    const second = h.fake.chatRequests().at(-1)!;
    expect(bodyOf(second).messages.filter((m) => m.role !== 'system').map((m) => [m.role, m.content])).toEqual([
      ['user', 'First question'],
      ['assistant', 'Hello from the fake model.'],
      ['user', 'Second question'],
    ]);
    await expect(h.chat({ workflowId: workflowId(), message: 'x', chatId: first.chatId })).rejects.toThrow('chatId belongs to another workflow');
    await expect(h.chat({ workflowId: wf, message: '   ' })).rejects.toThrow('message is required');
    await expect(h.chat({ workflowId: wf, message: 'x', provider: 'nope' })).rejects.toThrow(/^provider must be one of/);
  });

  it('finishes a turn whose worker stopped mid-turn on a fresh worker, which replays it from its history', async () => {
    const wf = workflowId();
    h.fake.reply({ toolCalls: [{ name: 'get_yaml_structure', arguments: {} }] }, { content: 'Done on the second worker.' });
    // The first round (a model call, a tool) runs; the second model call is held while the copilot's worker is replaced.
    const held = h.holdModelCall(2);
    const pending = h.chat({ workflowId: wf, message: 'Explain the YAML' });
    await held.reached;
    await h.replaceCopilotWorker();
    held.release();
    const { result, chatId, turnId } = await pending;
    const history = await keep(turnId, 'turn-worker-lost');
    // The turn's last workflow tasks ran on the fresh worker, which had only the history to go on.
    const taskWorkers = (history.events ?? []).flatMap((e) => (e.workflowTaskStartedEventAttributes?.identity ? [e.workflowTaskStartedEventAttributes.identity] : []));
    expect(taskWorkers[0]).toBe('copilot-worker-1');
    expect(taskWorkers.at(-1)).toBe('copilot-worker-2');
    expect(result.error).toBeUndefined();
    expect(result.toolCalls.map((c) => [c.name, c.state])).toEqual([['get_yaml_structure', 'completed']]);
    expect(result.content).toBe('Done on the second worker.');
    expect(h.fake.chatRequests()).toHaveLength(2);
    expect((await h.store.messages(chatId)).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });
  it('stops a turn mid-stream: the model call is aborted, the partial answer is stored marked stopped, and the chat goes on with it', async () => {
    const wf = workflowId();
    const answer = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    h.fake.reply({ content: answer, sseIntervalMs: 100 });
    const { result, feed, chatId, turnId } = await h.begin({ workflowId: wf, message: 'Write a long answer' });
    await expect.poll(() => feed.text().split(' ').length, { timeout: 15_000 }).toBeGreaterThan(3);
    await h.turns.cancel(chatId, turnId, 'user-1');
    const stopped = await result();
    const history = await keep(turnId, 'turn-stopped');
    // The model call answered its cancellation as cancelled, with the text it had streamed.
    expect((history.events ?? []).some((e) => e.activityTaskCanceledEventAttributes)).toBe(true);

    expect(stopped.stopped).toBe(true);
    expect(stopped.error).toBeUndefined();
    expect(stopped.content).toMatch(/^word0 word1 word2/);
    expect(answer.startsWith(stopped.content)).toBe(true);
    expect(stopped.content.length).toBeLessThan(answer.length);
    // The provider's stream was closed before it ended, and what the client saw is what was kept.
    await expect.poll(() => h.fake.chatRequests()[0]?.abandoned).toBe(true);
    await expect.poll(() => feed.text()).toBe(stopped.content);
    feed.close();
    const messages = await h.store.messages(chatId);
    expect(messages.map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'Write a long answer', undefined],
      ['assistant', stopped.content, 'stopped'],
    ]);
    await expect(h.turns.cancel(chatId, turnId, 'user-1')).rejects.toThrow(`Turn ${turnId} has already ended`);

    const next = await h.chat({ workflowId: wf, message: 'Go on', chatId });
    expect(next.result.error).toBeUndefined();
    expect(next.result.content).toBe('Hello from the fake model.');
    expect(bodyOf(h.fake.chatRequests().at(-1)!).messages.filter((m) => m.role !== 'system').map((m) => [m.role, m.content])).toEqual([
      ['user', 'Write a long answer'],
      ['assistant', stopped.content],
      ['user', 'Go on'],
    ]);
  });

  it('a stop while a tool runs lets that edit land whole, runs no further tool or model call, and keeps the history well-formed', async () => {
    const wf = workflowId();
    h.fake.reply({ toolCalls: [{ name: 'edit_workflow', arguments: { yamlContent: AGENT_AND_SLACK_YAML } }, { name: 'get_yaml_structure', arguments: {} }] });
    const { editing, release, restore } = holdEditorReads();
    try {
      const { result, chatId, turnId } = await h.begin({ workflowId: wf, message: 'Add a Slack step' });
      await editing;
      await h.turns.cancel(chatId, turnId, 'user-1');
      release();
      const stopped = await result();
      await keep(turnId, 'turn-stopped-tool');
      expect(stopped.stopped).toBe(true);
      expect(stopped.toolCalls.map((c) => [c.name, c.state, c.error])).toEqual([
        ['edit_workflow', 'completed', undefined],
        ['get_yaml_structure', 'error', TOOL_NOT_RUN],
      ]);
      expect(stopped.checkpointIds).toHaveLength(1);
      expect(Object.keys(h.editor.state(wf).blocks).sort()).toEqual(['notify', 'start', 'writer']);
      expect(h.fake.chatRequests()).toHaveLength(1);
      const messages = await h.store.messages(chatId);
      expect(messages.map((m) => [m.role, m.status])).toEqual([
        ['user', undefined],
        ['assistant', undefined],
        ['tool', undefined],
        ['tool', undefined],
        ['assistant', 'stopped'],
      ]);
      // The next turn sends every call its result, and leaves out the empty stopped answer.
      await h.chat({ workflowId: wf, message: 'Thanks', chatId });
      expect(bodyOf(h.fake.chatRequests().at(-1)!).messages.filter((m) => m.role !== 'system').map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'user']);
    } finally {
      restore();
    }
  });

  it('a stop before the model wrote anything stores an empty stopped answer; unknown, foreign and ended turns are refused', async () => {
    const wf = workflowId();
    const held = h.holdModelCall(1);
    const { result, chatId, turnId } = await h.begin({ workflowId: wf, message: 'Hello' });
    await held.reached;
    await expect(h.turns.cancel(chatId, 'turn-unknown', 'user-1')).rejects.toThrow('Turn turn-unknown not found');
    await expect(h.turns.cancel(chatId, turnId, 'user-2')).rejects.toThrow(`Chat ${chatId} not found`);
    await expect(h.turns.cancel('no-such-chat', turnId, 'user-1')).rejects.toThrow('Chat no-such-chat not found');
    await h.turns.cancel(chatId, turnId, 'user-1');
    const stopped = await result();
    held.release();
    await keep(turnId, 'turn-stopped-before-text');
    expect(stopped).toMatchObject({ stopped: true, content: '', toolCalls: [] });
    expect(h.fake.chatRequests()).toHaveLength(0);
    expect((await h.store.messages(chatId)).map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'Hello', undefined],
      ['assistant', '', 'stopped'],
    ]);
    const other = await h.chat({ workflowId: wf, message: 'Other chat' });
    await expect(h.turns.cancel(chatId, other.turnId, 'user-1')).rejects.toThrow(`Turn ${other.turnId} not found`);
    await expect(h.turns.cancel(other.chatId, other.turnId, 'user-1')).rejects.toThrow(`Turn ${other.turnId} has already ended`);
  });

  it('a stop during the last tool of the last allowed round, with no tool left to skip and no model call to follow, still ends the turn stopped', async () => {
    const wf = workflowId();
    // Every round but the last calls a cheap tool; the last round's only call is the edit held below.
    h.fake.reply(
      ...Array.from({ length: COPILOT_MAX_ITERATIONS - 1 }, () => ({ toolCalls: [{ name: 'get_last_run', arguments: {} }] })),
      { toolCalls: [{ name: 'edit_workflow', arguments: { yamlContent: AGENT_AND_SLACK_YAML } }] },
    );
    const { editing, release, restore } = holdEditorReads();
    try {
      const { result, chatId, turnId } = await h.begin({ workflowId: wf, message: 'Add a Slack step' });
      await editing;
      expect(h.fake.chatRequests()).toHaveLength(COPILOT_MAX_ITERATIONS);
      await h.turns.cancel(chatId, turnId, 'user-1');
      release();
      const stopped = await result();
      await keep(turnId, 'turn-stopped-last-round');
      expect(stopped.stopped).toBe(true);
      expect(stopped.error).toBeUndefined();
      expect(stopped.content).toBe('');
      // Every call ran: the edit landed whole, nothing was left to answer `TOOL_NOT_RUN`.
      expect(stopped.toolCalls.map((c) => [c.name, c.state])).toEqual([
        ...Array.from({ length: COPILOT_MAX_ITERATIONS - 1 }, () => ['get_last_run', 'completed']),
        ['edit_workflow', 'completed'],
      ]);
      expect(stopped.checkpointIds).toHaveLength(1);
      expect(Object.keys(h.editor.state(wf).blocks).sort()).toEqual(['notify', 'start', 'writer']);
      expect(h.fake.chatRequests()).toHaveLength(COPILOT_MAX_ITERATIONS);
      const messages = await h.store.messages(chatId);
      expect(messages.map((m) => [m.role, m.status])).toEqual([
        ['user', undefined],
        ...Array.from({ length: COPILOT_MAX_ITERATIONS }, () => [
          ['assistant', undefined],
          ['tool', undefined],
        ]).flat(),
        ['assistant', 'stopped'],
      ]);
      expect(messages.at(-1)?.content).toBe('');
    } finally {
      restore();
    }
  });
});
