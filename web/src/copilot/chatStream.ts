/** The copilot chat as the panel shows it, folded from the gateway's Server-Sent Events (`data: {type, ...}`). */

export type ToolState = 'detecting' | 'executing' | 'completed' | 'error';

export interface WorkflowDiff {
  blocks: {
    added: Array<{ id: string; type: string; name: string }>;
    removed: Array<{ id: string; type: string; name: string }>;
    changed: Array<{ id: string; type: string; name: string; fields: string[] }>;
  };
  edges: { added: Array<{ source: string; target: string }>; removed: Array<{ source: string; target: string }> };
}

export type ChatItem =
  | { kind: 'user'; text: string }
  /** `stopped`: the user stopped the turn; the text is the answer as far as it got. */
  | { kind: 'assistant'; text: string; stopped?: boolean }
  | { kind: 'tool'; id: string; name: string; state: ToolState; error?: string }
  | { kind: 'checkpoint'; checkpointId: string; reverted: boolean }
  | { kind: 'proposal'; proposalId: string; diff: WorkflowDiff; status: 'pending' | 'accepted' | 'rejected' }
  | { kind: 'error'; text: string };

export interface ChatView {
  chatId?: string;
  /** The turn streaming now (from its `start` event), so it can be stopped. */
  turnId?: string;
  items: ChatItem[];
  busy: boolean;
}

export type StreamEvent = { type: string; [key: string]: unknown };

/** Splits a growing SSE text into complete `data:` events and the unfinished rest. */
export function takeEvents(buffer: string): { events: StreamEvent[]; rest: string } {
  const blocks = buffer.split('\n\n');
  const rest = blocks.pop() ?? '';
  const events: StreamEvent[] = [];
  for (const block of blocks) {
    const data = block
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => l.slice(6))
      .join('\n');
    if (!data) continue;
    try {
      events.push(JSON.parse(data) as StreamEvent);
    } catch {
      // A malformed event is skipped; the turn's final `done` carries the whole answer anyway.
    }
  }
  return { events, rest };
}

const STATE_ORDER: Record<ToolState, number> = { detecting: 0, executing: 1, completed: 2, error: 2 };

/** Applies one stream event to the view. */
export function applyEvent(view: ChatView, event: StreamEvent): ChatView {
  const items = [...view.items];
  const last = items.at(-1);
  switch (event.type) {
    case 'start':
      return { ...view, chatId: String(event.chatId), ...(typeof event.turnId === 'string' ? { turnId: event.turnId } : {}) };
    case 'content': {
      const text = String(event.data ?? '');
      if (last?.kind === 'assistant') items[items.length - 1] = { ...last, text: last.text + text };
      else items.push({ kind: 'assistant', text });
      return { ...view, items };
    }
    case 'tool_call': {
      const id = String(event.toolCallId);
      const state = event.state as ToolState;
      const at = items.findIndex((i) => i.kind === 'tool' && i.id === id);
      const existing = at >= 0 ? items[at] : undefined;
      const error = typeof event.error === 'string' ? event.error : undefined;
      // States can arrive out of order from two publishers; a later state is never replaced by an earlier one.
      if (existing?.kind === 'tool') {
        if (STATE_ORDER[state] >= STATE_ORDER[existing.state]) items[at] = { ...existing, state, ...(error ? { error } : {}) };
      } else items.push({ kind: 'tool', id, name: String(event.toolName), state, ...(error ? { error } : {}) });
      return { ...view, items };
    }
    case 'checkpoint':
      items.push({ kind: 'checkpoint', checkpointId: String(event.checkpointId), reverted: false });
      return { ...view, items };
    case 'proposal':
      items.push({ kind: 'proposal', proposalId: String(event.proposalId), diff: event.diff as WorkflowDiff, status: 'pending' });
      return { ...view, items };
    case 'done': {
      // When no token of this turn (the items since the last user message) reached this client, the turn's stored answer stands in for them.
      const content = typeof event.content === 'string' ? event.content : '';
      const turnStart = items.findLastIndex((i) => i.kind === 'user');
      if (content && !items.slice(turnStart + 1).some((i) => i.kind === 'assistant')) items.push({ kind: 'assistant', text: content });
      if (typeof event.error === 'string') items.push({ kind: 'error', text: event.error });
      return { ...view, items, busy: false };
    }
    case 'cancelled': {
      // The turn's last answer, as far as it got, is marked stopped (an empty one when it stopped before any text).
      const turnStart = items.findLastIndex((i) => i.kind === 'user');
      const at = items.findLastIndex((i, n) => n > turnStart && i.kind === 'assistant');
      const content = typeof event.content === 'string' ? event.content : '';
      const answer = at >= 0 ? items[at] : undefined;
      if (answer?.kind === 'assistant' && at === items.length - 1) items[at] = { ...answer, stopped: true };
      else items.push({ kind: 'assistant', text: answer ? '' : content, stopped: true });
      return { ...view, items, busy: false };
    }
    case 'error':
      items.push({ kind: 'error', text: String(event.error ?? 'The copilot failed') });
      return { ...view, items, busy: false };
    default:
      return view;
  }
}
