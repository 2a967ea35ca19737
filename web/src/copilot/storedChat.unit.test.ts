import { describe, expect, it } from 'vitest';
import { chatTitle, chatView, timeAgo, type StoredChat, type StoredMessage } from './storedChat';
import type { WorkflowDiff } from './chatStream';

const at = '2026-11-27T10:00:00.000Z';
let n = 0;
const msg = (turnId: string, m: Omit<StoredMessage, 'id' | 'turnId' | 'createdAt'>): StoredMessage => ({ id: `m${n++}`, turnId, createdAt: at, ...m });
const tool = (turnId: string, id: string, name: string, result: unknown, state: 'completed' | 'error' = 'completed') =>
  msg(turnId, { role: 'tool', content: JSON.stringify(result), tool: { toolCallId: id, name, state } });
const chat = (messages: StoredMessage[], rest: Partial<StoredChat> = {}): StoredChat => ({
  id: 'chat-1',
  workflowId: 'wf-1',
  title: 'Add an agent',
  createdAt: at,
  updatedAt: at,
  messages,
  checkpoints: [],
  proposals: [],
  ...rest,
});
const diff: WorkflowDiff = { blocks: { added: [{ id: 'writer', type: 'agent', name: 'Writer' }], removed: [], changed: [] }, edges: { added: [], removed: [] } };

describe('a stored copilot chat in the panel', () => {
  it('shows answers, one line per tool call with its final state, and after an edit its checkpoint to revert to', () => {
    const view = chatView(
      chat(
        [
          msg('t1', { role: 'user', content: 'Add an agent' }),
          msg('t1', { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'get_user_workflow' }] }),
          tool('t1', 'c1', 'get_user_workflow', { success: true, data: { yaml: 'blocks: {}' } }),
          msg('t1', { role: 'assistant', content: 'Adding **Writer** now.', toolCalls: [{ id: 'c2', name: 'edit_workflow' }] }),
          tool('t1', 'c2', 'edit_workflow', { success: true, data: { message: 'Workflow saved', version: 3, checkpointId: 'cp_t1_c2' } }),
          msg('t1', { role: 'assistant', content: 'I added a Writer agent.' }),
          msg('t2', { role: 'user', content: 'Thanks' }),
          msg('t2', { role: 'assistant', content: 'You are welcome.' }),
        ],
        { checkpoints: [{ id: 'cp_t1_c2', turnId: 't1' }] },
      ),
    );
    expect(view).toEqual({
      chatId: 'chat-1',
      busy: false,
      items: [
        { kind: 'user', text: 'Add an agent' },
        { kind: 'tool', id: 'c1', name: 'get_user_workflow', state: 'completed' },
        { kind: 'assistant', text: 'Adding **Writer** now.' },
        { kind: 'tool', id: 'c2', name: 'edit_workflow', state: 'completed' },
        { kind: 'checkpoint', checkpointId: 'cp_t1_c2', reverted: false },
        { kind: 'assistant', text: 'I added a Writer agent.' },
        { kind: 'user', text: 'Thanks' },
        { kind: 'assistant', text: 'You are welcome.' },
      ],
    });
  });

  it('shows proposals in their stored state, without the checkpoint an accepted one made (the live view has none)', () => {
    const proposal = (id: string, turnId: string, status: 'pending' | 'accepted' | 'rejected', checkpointId: string | null = null) => ({ id, turnId, status, diff, checkpointId });
    const view = chatView(
      chat(
        [
          msg('t1', { role: 'user', content: 'Propose it' }),
          msg('t1', { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'edit_workflow' }] }),
          tool('t1', 'c1', 'edit_workflow', { success: true, data: { proposalId: 'pr_t1_c1', diff } }),
          msg('t1', { role: 'assistant', content: 'Here is the change.' }),
          msg('t2', { role: 'user', content: 'And another' }),
          msg('t2', { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'edit_workflow' }] }),
          tool('t2', 'c1', 'edit_workflow', { success: true, data: { proposalId: 'pr_t2_c1', diff } }),
          tool('t2', 'c9', 'edit_workflow', 'not json at all'),
        ],
        {
          proposals: [proposal('pr_t1_c1', 't1', 'accepted', 'cp_pr_t1_c1'), proposal('pr_t2_c1', 't2', 'pending'), proposal('pr_t2_x', 't2', 'rejected')],
          checkpoints: [{ id: 'cp_pr_t1_c1', turnId: 't1' }],
        },
      ),
    );
    expect(view.items.map((i) => (i.kind === 'proposal' ? `proposal ${i.proposalId} ${i.status}` : i.kind))).toEqual([
      'user',
      'tool',
      'proposal pr_t1_c1 accepted',
      'assistant',
      'user',
      'tool',
      'proposal pr_t2_c1 pending',
      'tool',
      // Not named by a readable tool result: still shown, at the end of its turn.
      'proposal pr_t2_x rejected',
    ]);
    expect(view.items[2]).toMatchObject({ diff });
  });

  it('marks a stopped answer (alone when it stopped before any text), and shows a failed edit and a failed turn as live', () => {
    const view = chatView(
      chat([
        msg('t1', { role: 'user', content: 'Write a lot' }),
        msg('t1', { role: 'assistant', content: 'word0 word1', status: 'stopped' }),
        msg('t2', { role: 'user', content: 'Edit it' }),
        msg('t2', { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'edit_workflow' }] }),
        tool('t2', 'c1', 'edit_workflow', { success: false, error: 'Edit workflow failed: Invalid YAML at line 3: bad' }, 'error'),
        msg('t2', { role: 'assistant', content: '', status: 'stopped' }),
        msg('t3', { role: 'user', content: 'Try again' }),
        msg('t3', { role: 'assistant', content: 'Error: Incorrect API key provided', status: 'error' }),
      ]),
    );
    expect(view.items.slice(1)).toEqual([
      { kind: 'assistant', text: 'word0 word1', stopped: true },
      { kind: 'user', text: 'Edit it' },
      { kind: 'tool', id: 'c1', name: 'edit_workflow', state: 'error', error: 'Edit workflow failed: Invalid YAML at line 3: bad' },
      { kind: 'assistant', text: '', stopped: true },
      { kind: 'user', text: 'Try again' },
      { kind: 'error', text: 'Incorrect API key provided' },
    ]);
  });

  it('an answer of the model that starts with "Error: " stays an answer (only a failed turn’s is marked error)', () => {
    const view = chatView(chat([msg('t1', { role: 'user', content: 'hi' }), msg('t1', { role: 'assistant', content: 'Error: handling is added.' })]));
    expect(view.items.slice(1)).toEqual([{ kind: 'assistant', text: 'Error: handling is added.' }]);
  });

  it('titles chats by their first message on one line, cut, and says how long ago', () => {
    expect(chatTitle('Add an agent\nthat   writes')).toBe('Add an agent that writes');
    expect(chatTitle('x'.repeat(60), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(chatTitle('  ')).toBe('New chat');
    const now = Date.parse(at);
    expect(timeAgo(at, now + 20_000)).toBe('just now');
    expect(timeAgo(at, now + 5 * 60_000)).toBe('5m ago');
    expect(timeAgo(at, now + 3 * 3_600_000 + 10)).toBe('3h ago');
    expect(timeAgo(at, now + 2 * 86_400_000)).toBe('2d ago');
    expect(timeAgo('not a date', now)).toBe('');
  });
});
