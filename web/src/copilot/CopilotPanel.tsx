import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { applyEvent, takeEvents, type ChatItem, type ChatView } from './chatStream';
import { CopilotItem, type ProposalItem } from './CopilotItem';
import { Composer } from './Composer';
import { ChatHistory } from './ChatHistory';
import { chatView, fetchChat, fetchChats } from './storedChat';
import { Icon } from '../ui/icons';
import { useToast } from '../ui/toast';
import './copilot.css';

async function postJson(path: string, body?: unknown): Promise<{ ok: boolean; status: number; body: Record<string, unknown> }> {
  const res = await fetch(path, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
  const text = await res.text();
  return { ok: res.ok, status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

function errorOf(body: Record<string, unknown>): string {
  return typeof body.error === 'string' ? body.error : typeof body.message === 'string' ? body.message : 'The request failed';
}

/** What the empty panel offers to start from (a click puts it in the composer). */
const SUGGESTIONS = ['Add an agent that summarises the input', 'Explain what this workflow does', 'Add error handling to the API calls'];

/** How close to the bottom (px) the list counts as following the conversation. */
const FOLLOW_SLACK = 48;

/**
 * The copilot beside the canvas: the conversation with streamed text and tool call states, proposed diffs
 * to accept or reject, and checkpoints to revert to. Edits land through the editor, so the canvas shows
 * them live like any other collaborator's. While a reply streams, Send becomes Stop: the turn is stopped
 * on the server, and its answer stays as far as it got, marked "Stopped". The panel opens on the user's
 * latest chat of the workflow (stored by the copilot service); "New chat" starts another, and the history
 * menu reopens an earlier one.
 */
export function CopilotPanel({ workflowId }: { workflowId: string }) {
  const [view, setView] = useState<ChatView>({ items: [], busy: false });
  /** The chat to show: undefined for the latest one, null for a new chat, else the one picked. */
  const [picked, setPicked] = useState<string | null | undefined>(undefined);
  const toast = useToast();
  const queries = useQueryClient();
  const chats = useQuery({ queryKey: ['copilotChats', workflowId], queryFn: () => fetchChats(workflowId) });
  const target = picked === undefined ? chats.data?.[0]?.id : picked;
  // Loaded only when the panel is not already showing it (a chat the user is talking in is the live view).
  const stored = useQuery({ queryKey: ['copilotChat', target], queryFn: () => fetchChat(String(target)), enabled: typeof target === 'string' && view.chatId !== target });
  const [draft, setDraft] = useState('');
  const [propose, setPropose] = useState(false);
  const [stopping, setStopping] = useState(false);
  /** Stop was pressed before the turn's `start` event named it: the stop goes out once it does. */
  const stopWanted = useRef(false);
  const list = useRef<HTMLOListElement>(null);
  const following = useRef(true);

  // New text scrolls into view unless the reader scrolled up to read something earlier.
  useLayoutEffect(() => {
    const el = list.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [view.items]);

  useEffect(() => {
    // A chat reopened after its cached copy went stale waits for the fresh one.
    if (stored.data && !stored.isFetching && stored.data.id === target && view.chatId !== target && !view.busy) {
      following.current = true;
      setView(chatView(stored.data));
    }
  }, [stored.data, stored.isFetching, target, view.chatId, view.busy]);
  useEffect(() => {
    if (chats.error) toast.error(`Failed to load the copilot's chats: ${chats.error.message}`);
  }, [chats.error, toast]);
  useEffect(() => {
    if (stored.error) toast.error(`Failed to load the chat: ${stored.error.message}`);
  }, [stored.error, toast]);

  /** The chat to show is not in the panel yet (the list or the chat itself is on its way, or about to be drawn). */
  const loading = view.items.length === 0 && (chats.isPending || (typeof target === 'string' && view.chatId !== target && !stored.isError));

  const [queued, setQueued] = useState(false);
  // `send` of this render: it reads the chat now shown.
  const sendNow = useRef<() => Promise<void>>(async () => {});
  useEffect(() => {
    if (!queued || loading) return;
    // Cleared first: a send that returns early (empty draft, a reply under way) must not leave it set, to fire unasked later.
    setQueued(false);
    void sendNow.current();
  }, [queued, loading]);

  function open(chatId: string | null) {
    if (view.busy) return;
    setPicked(chatId);
    setStopping(false);
    if (chatId === null || chatId !== view.chatId) setView({ items: [], busy: false });
  }

  const update = (at: number, item: ChatItem) => setView((v) => ({ ...v, items: v.items.map((x, i) => (i === at ? item : x)) }));
  const fail = (text: string) => setView((v) => ({ ...v, busy: false, items: [...v.items, { kind: 'error', text }] }));

  async function cancelTurn(chatId: string, turnId: string) {
    const out = await postJson(`/api/copilot/chats/${encodeURIComponent(chatId)}/turns/${encodeURIComponent(turnId)}/cancel`).catch(() => undefined);
    // 409: the turn ended meanwhile, and its stream says how. Otherwise the reply goes on: Stop can be pressed again.
    if (out?.ok || out?.status === 409) return;
    setStopping(false);
    setView((v) => ({ ...v, items: [...v.items, { kind: 'error', text: out ? errorOf(out.body) : 'The copilot is unreachable' }] }));
  }

  function stop() {
    setStopping(true);
    if (view.chatId && view.turnId && view.busy) void cancelTurn(view.chatId, view.turnId);
    else stopWanted.current = true;
  }

  async function send() {
    const message = draft.trim();
    if (!message || view.busy) return;
    // While the chat to show is still loading the message waits, and goes to that chat once it is shown.
    if (loading) {
      setQueued(true);
      return;
    }
    setQueued(false);
    setDraft('');
    setStopping(false);
    stopWanted.current = false;
    following.current = true;
    setView((v) => ({ ...v, busy: true, turnId: undefined, items: [...v.items, { kind: 'user', text: message }] }));
    const res = await fetch('/api/copilot/chat', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message, workflowId, ...(view.chatId ? { chatId: view.chatId } : {}), propose }),
    }).catch(() => undefined);
    if (!res?.ok || !res.body) {
      fail(res ? errorOf((await res.json().catch(() => ({}))) as Record<string, unknown>) : 'The copilot is unreachable');
      return;
    }
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const taken = takeEvents(buffer + value);
      buffer = taken.rest;
      if (!taken.events.length) continue;
      setView((v) => taken.events.reduce(applyEvent, v));
      const start = taken.events.find((e) => e.type === 'start');
      // The panel stays on this chat when the list of chats refreshes.
      if (start) setPicked(String(start.chatId));
      if (start && stopWanted.current) {
        stopWanted.current = false;
        void cancelTurn(String(start.chatId), String(start.turnId));
      }
    }
    setView((v) => ({ ...v, busy: false }));
    setStopping(false);
    void queries.invalidateQueries({ queryKey: ['copilotChats', workflowId] });
    void queries.invalidateQueries({ queryKey: ['copilotChat'] });
  }

  sendNow.current = send;

  async function revert(at: number, checkpointId: string) {
    const out = await postJson(`/api/copilot/checkpoints/${encodeURIComponent(checkpointId)}/revert`);
    if (out.ok) update(at, { kind: 'checkpoint', checkpointId, reverted: true });
    else fail(errorOf(out.body));
  }

  async function decide(at: number, item: ProposalItem, action: 'accept' | 'reject') {
    const out = await postJson(`/api/copilot/proposals/${encodeURIComponent(item.proposalId)}`, { action });
    if (out.ok) update(at, { ...item, status: action === 'accept' ? 'accepted' : 'rejected' });
    else fail(errorOf(out.body));
  }

  // Until the first words of the reply arrive, a typing indicator says the copilot is on it.
  const waiting = view.busy && view.items.at(-1)?.kind === 'user';
  return (
    <section className="panel copilot" aria-label="Copilot">
      <div className="copilot-head">
        <span className="copilot-mark" aria-hidden="true">
          <Icon name="sparkle" size={14} />
        </span>
        <h2>Copilot</h2>
        {view.busy && <span className="pill pill-accent">{stopping ? 'Stopping…' : 'Replying…'}</span>}
        <button type="button" className="btn btn-sm btn-ghost" disabled={view.busy || (view.items.length === 0 && !view.chatId)} onClick={() => open(null)}>
          <Icon name="plus" size={12} /> New chat
        </button>
        <ChatHistory chats={chats.data ?? []} current={view.chatId} disabled={view.busy} onOpen={open} />
      </div>
      {loading ? (
        <p className="copilot-loading muted" role="status">
          Loading the chat…
        </p>
      ) : view.items.length === 0 ? (
        <div className="copilot-empty">
          <p>Ask for a change in your own words: the copilot edits the workflow, and every edit can be reverted.</p>
          <ul aria-label="Suggestions">
            {SUGGESTIONS.map((s) => (
              <li key={s}>
                <button type="button" className="copilot-suggestion" onClick={() => setDraft(s)}>
                  {s}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <ol
          className="copilot-items"
          ref={list}
          aria-live="polite"
          onScroll={(e) => {
            const el = e.currentTarget;
            following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_SLACK;
          }}
        >
          {view.items.map((item, at) => (
            <li key={at} className={`copilot-${item.kind}`}>
              <CopilotItem item={item} onRevert={(id) => void revert(at, id)} onDecide={(p, action) => void decide(at, p, action)} />
            </li>
          ))}
          {waiting && (
            <li className="copilot-assistant" aria-label="The copilot is replying">
              <p className="copilot-bubble copilot-typing">
                <span />
                <span />
                <span />
              </p>
            </li>
          )}
        </ol>
      )}
      <Composer draft={draft} busy={view.busy} stopping={stopping} propose={propose} onDraft={setDraft} onPropose={setPropose} onSend={() => void send()} onStop={stop} />
    </section>
  );
}
