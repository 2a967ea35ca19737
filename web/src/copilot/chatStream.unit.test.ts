import { describe, expect, it } from 'vitest';
import { applyEvent, takeEvents, type ChatView } from './chatStream';

const empty: ChatView = { items: [{ kind: 'user', text: 'hi' }], busy: true };
const fold = (events: Array<Record<string, unknown> & { type: string }>) => events.reduce(applyEvent, empty);

describe('copilot chat stream', () => {
  it('splits complete events and keeps the unfinished rest', () => {
    const { events, rest } = takeEvents('data: {"type":"content","data":"Hel"}\n\n: keep-alive\n\ndata: {"type":"content","data":"lo"}\n\ndata: {"ty');
    expect(events).toEqual([
      { type: 'content', data: 'Hel' },
      { type: 'content', data: 'lo' },
    ]);
    expect(rest).toBe('data: {"ty');
  });

  it('joins tokens into one answer and follows a tool call through its states, never backwards', () => {
    const view = fold([
      { type: 'start', chatId: 'c1' },
      { type: 'tool_call', toolCallId: 't1', toolName: 'edit_workflow', state: 'detecting' },
      { type: 'tool_call', toolCallId: 't1', toolName: 'edit_workflow', state: 'completed' },
      { type: 'tool_call', toolCallId: 't1', toolName: 'edit_workflow', state: 'executing' },
      { type: 'content', data: 'Done ' },
      { type: 'content', data: 'now.' },
      { type: 'done', content: 'Done now.' },
    ]);
    expect(view.chatId).toBe('c1');
    expect(view.busy).toBe(false);
    expect(view.items).toEqual([
      { kind: 'user', text: 'hi' },
      { kind: 'tool', id: 't1', name: 'edit_workflow', state: 'completed' },
      { kind: 'assistant', text: 'Done now.' },
    ]);
  });

  it('shows a failed edit with its message, and the final answer when tokens were lost', () => {
    const view = fold([
      { type: 'tool_call', toolCallId: 't1', toolName: 'edit_workflow', state: 'error', error: 'Edit workflow failed: Invalid YAML at line 3: bad' },
      { type: 'done', content: 'Fixed it.' },
    ]);
    expect(view.items.slice(1)).toEqual([
      { kind: 'tool', id: 't1', name: 'edit_workflow', state: 'error', error: 'Edit workflow failed: Invalid YAML at line 3: bad' },
      { kind: 'assistant', text: 'Fixed it.' },
    ]);
  });

  it('shows a later turn’s stored answer when its tokens were lost, though an earlier turn answered', () => {
    const first = fold([{ type: 'content', data: 'Added Notify.' }, { type: 'done', content: 'Added Notify.' }]);
    const second = [{ type: 'done', content: 'You are welcome.' }].reduce(applyEvent, { ...first, items: [...first.items, { kind: 'user', text: 'Thanks' }] });
    expect(second.items.map((i) => (i.kind === 'user' || i.kind === 'assistant' ? `${i.kind}: ${i.text}` : i.kind))).toEqual(['user: hi', 'assistant: Added Notify.', 'user: Thanks', 'assistant: You are welcome.']);
  });

  it('a stopped turn keeps its partial answer marked stopped, and remembers the turn to stop', () => {
    const started = fold([{ type: 'start', chatId: 'c1', turnId: 'turn-1' }, { type: 'content', data: 'Half an ' }, { type: 'content', data: 'answer' }]);
    expect(started.turnId).toBe('turn-1');
    expect(started.busy).toBe(true);
    const view = [{ type: 'cancelled', turnId: 'turn-1', content: 'Half an answer' }].reduce(applyEvent, started);
    expect(view.busy).toBe(false);
    expect(view.items.at(-1)).toEqual({ kind: 'assistant', text: 'Half an answer', stopped: true });
  });

  it('a turn stopped before any text, or during a tool after an earlier answer, shows only the stopped note', () => {
    expect(fold([{ type: 'cancelled', content: '' }]).items.at(-1)).toEqual({ kind: 'assistant', text: '', stopped: true });
    const view = fold([
      { type: 'content', data: 'Let me look.' },
      { type: 'tool_call', toolCallId: 't1', toolName: 'get_user_workflow', state: 'completed' },
      { type: 'cancelled', content: 'Let me look.' },
    ]);
    expect(view.items.slice(1)).toEqual([
      { kind: 'assistant', text: 'Let me look.' },
      { kind: 'tool', id: 't1', name: 'get_user_workflow', state: 'completed' },
      { kind: 'assistant', text: '', stopped: true },
    ]);
    // No token reached this client: the stored partial answer stands in.
    expect(fold([{ type: 'cancelled', content: 'Stored half' }]).items.at(-1)).toEqual({ kind: 'assistant', text: 'Stored half', stopped: true });
  });

  it('ends on an error event', () => {
    expect(fold([{ type: 'error', error: 'The service is unavailable' }]).items.at(-1)).toEqual({ kind: 'error', text: 'The service is unavailable' });
  });
});
