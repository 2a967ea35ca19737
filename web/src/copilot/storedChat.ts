/** The copilot's stored chats (`GET /api/copilot/chats`, `GET /api/copilot/chats/{id}`) and how the panel shows them. */
import { ApiError, answerMessage } from '../api';
import type { ChatItem, ChatView, ToolState, WorkflowDiff } from './chatStream';

/** One of the caller's chats of a workflow, as the list answers it (newest first). */
export interface ChatSummary {
  id: string;
  workflowId: string;
  /** The chat's first user message (cut by the service). */
  title: string;
  createdAt: string;
  updatedAt: string;
}

/** A stored message: the user's, the copilot's (with the tool calls it asked for), or a tool's result. */
export interface StoredMessage {
  id: string;
  turnId: string;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  createdAt: string;
  toolCalls?: Array<{ id: string; name: string }>;
  tool?: { toolCallId: string; name: string; state: 'completed' | 'error' };
  /** `stopped`: a stopped turn's answer; `error`: a failed turn's `Error: <message>`. */
  status?: 'stopped' | 'error';
}

export interface StoredChat extends ChatSummary {
  messages: StoredMessage[];
  checkpoints: Array<{ id: string; turnId: string }>;
  proposals: Array<{ id: string; turnId: string; status: 'pending' | 'accepted' | 'rejected'; diff: WorkflowDiff; checkpointId: string | null }>;
}

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(path, { credentials: 'same-origin' });
  const body: unknown = await res.json().catch(() => ({}));
  if (!res.ok) {
    const fallback = res.statusText || `HTTP ${res.status}`;
    throw new ApiError(res.status, answerMessage(body, fallback), typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {}, fallback);
  }
  return body as T;
}

/** The caller's chats of the workflow, newest first. */
export const fetchChats = (workflowId: string) => getJson<{ chats: ChatSummary[] }>(`/api/copilot/chats?workflowId=${encodeURIComponent(workflowId)}`).then((r) => r.chats);
/** One chat with its messages, checkpoints and proposals. */
export const fetchChat = (chatId: string) => getJson<{ chat: StoredChat }>(`/api/copilot/chats/${encodeURIComponent(chatId)}`).then((r) => r.chat);

/** A tool result as stored (`{success, data}` or `{success: false, error}`); anything else reads as no data. */
function toolResult(content: string): { data?: { checkpointId?: unknown; proposalId?: unknown }; error?: unknown } {
  try {
    const parsed: unknown = JSON.parse(content);
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

/** How a failed turn's stored answer begins (the copilot's `finishTurn`, status `error`): the live view shows the rest as an error. */
const ERROR_PREFIX = 'Error: ';

/**
 * A stored chat as the panel's items, the way the live stream showed them: answers (a stopped one marked),
 * a line per tool call with its final state, after an edit its checkpoint (to revert to), after a proposed
 * edit its card in its stored state, and a failed turn's error. Empty answers (a round that only called
 * tools) show nothing, as live.
 */
export function chatView(chat: StoredChat): ChatView {
  const checkpoints = new Map(chat.checkpoints.map((c) => [c.id, c]));
  const proposals = new Map(chat.proposals.map((p) => [p.id, p]));
  // An accepted proposal's checkpoint is not shown live (the card says Accepted), so not here either.
  const shown = new Set(chat.proposals.flatMap((p) => (p.checkpointId ? [p.checkpointId] : [])));
  const items: ChatItem[] = [];
  const turnOf = (at: number) => chat.messages[at]?.turnId;
  const showCheckpoint = (c: { id: string } | undefined) => {
    if (!c || shown.has(c.id)) return;
    shown.add(c.id);
    items.push({ kind: 'checkpoint', checkpointId: c.id, reverted: false });
  };
  const showProposal = (p: StoredChat['proposals'][number] | undefined) => {
    if (!p || shown.has(p.id)) return;
    shown.add(p.id);
    items.push({ kind: 'proposal', proposalId: p.id, diff: p.diff, status: p.status });
  };
  /** Checkpoints and proposals of the turn the tool results did not name (kept in the store's order). */
  const leftovers = (turnId: string) => {
    chat.checkpoints.filter((c) => c.turnId === turnId).forEach(showCheckpoint);
    chat.proposals.filter((p) => p.turnId === turnId).forEach(showProposal);
  };
  chat.messages.forEach((m, at) => {
    const lastOfTurn = turnOf(at + 1) !== m.turnId;
    if (m.role === 'user') items.push({ kind: 'user', text: m.content });
    else if (m.role === 'assistant') {
      if (m.status === 'stopped') items.push({ kind: 'assistant', text: m.content, stopped: true });
      else if (m.status === 'error') items.push({ kind: 'error', text: m.content.startsWith(ERROR_PREFIX) ? m.content.slice(ERROR_PREFIX.length) : m.content });
      else if (m.content) items.push({ kind: 'assistant', text: m.content });
    } else if (m.tool) {
      const result = toolResult(m.content);
      const state: ToolState = m.tool.state;
      items.push({ kind: 'tool', id: m.tool.toolCallId, name: m.tool.name, state, ...(state === 'error' && typeof result.error === 'string' ? { error: result.error } : {}) });
      showCheckpoint(typeof result.data?.checkpointId === 'string' ? checkpoints.get(result.data.checkpointId) : undefined);
      showProposal(typeof result.data?.proposalId === 'string' ? proposals.get(result.data.proposalId) : undefined);
    }
    if (lastOfTurn) leftovers(m.turnId);
  });
  return { chatId: chat.id, items, busy: false };
}

/** A chat's title for the history menu: its first message on one line, cut to `max` characters. */
export function chatTitle(title: string, max = 48): string {
  const line = title.replace(/\s+/g, ' ').trim() || 'New chat';
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

const UNITS: Array<[string, number]> = [
  ['y', 365 * 86_400],
  ['mo', 30 * 86_400],
  ['d', 86_400],
  ['h', 3_600],
  ['m', 60],
];

/** How long ago `iso` was, shortly ("just now", "5m ago", "3h ago", "2d ago"). */
export function timeAgo(iso: string, now: number): string {
  const seconds = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  if (!Number.isFinite(seconds)) return '';
  for (const [unit, size] of UNITS) if (seconds >= size) return `${Math.floor(seconds / size)}${unit} ago`;
  return 'just now';
}
