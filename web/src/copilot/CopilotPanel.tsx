import { useState } from 'react';
import { applyEvent, takeEvents, type ChatItem, type ChatView, type WorkflowDiff } from './chatStream';
import './copilot.css';

async function postJson(path: string, body?: unknown): Promise<{ ok: boolean; body: Record<string, unknown> }> {
  const res = await fetch(path, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
  const text = await res.text();
  return { ok: res.ok, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

function errorOf(body: Record<string, unknown>): string {
  return typeof body.error === 'string' ? body.error : typeof body.message === 'string' ? body.message : 'The request failed';
}

function DiffView({ diff }: { diff: WorkflowDiff }) {
  const line = (sign: string, text: string, key: string) => (
    <li key={key} className={`diff-${sign === '+' ? 'add' : sign === '-' ? 'remove' : 'change'}`}>
      {sign} {text}
    </li>
  );
  return (
    <ul className="copilot-diff" aria-label="Proposed changes">
      {diff.blocks.added.map((b) => line('+', `${b.name} (${b.type})`, `a${b.id}`))}
      {diff.blocks.removed.map((b) => line('-', `${b.name} (${b.type})`, `r${b.id}`))}
      {diff.blocks.changed.map((b) => line('~', `${b.name}: ${b.fields.join(', ')}`, `c${b.id}`))}
      {diff.edges.added.map((e) => line('+', `${e.source} → ${e.target}`, `ea${e.source}${e.target}`))}
      {diff.edges.removed.map((e) => line('-', `${e.source} → ${e.target}`, `er${e.source}${e.target}`))}
    </ul>
  );
}

/**
 * The copilot beside the canvas: the conversation with streamed text and tool call states, proposed diffs
 * to accept or reject, and checkpoints to revert to. Edits land through the editor, so the canvas shows
 * them live like any other collaborator's.
 */
export function CopilotPanel({ workflowId }: { workflowId: string }) {
  const [view, setView] = useState<ChatView>({ items: [], busy: false });
  const [draft, setDraft] = useState('');
  const [propose, setPropose] = useState(false);

  const update = (at: number, item: ChatItem) => setView((v) => ({ ...v, items: v.items.map((x, i) => (i === at ? item : x)) }));
  const fail = (text: string) => setView((v) => ({ ...v, busy: false, items: [...v.items, { kind: 'error', text }] }));

  async function send() {
    const message = draft.trim();
    if (!message || view.busy) return;
    setDraft('');
    setView((v) => ({ ...v, busy: true, items: [...v.items, { kind: 'user', text: message }] }));
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
      if (taken.events.length) setView((v) => taken.events.reduce(applyEvent, v));
    }
    setView((v) => ({ ...v, busy: false }));
  }

  async function revert(at: number, checkpointId: string) {
    const out = await postJson(`/api/copilot/checkpoints/${encodeURIComponent(checkpointId)}/revert`);
    if (out.ok) update(at, { kind: 'checkpoint', checkpointId, reverted: true });
    else fail(errorOf(out.body));
  }

  async function decide(at: number, item: Extract<ChatItem, { kind: 'proposal' }>, action: 'accept' | 'reject') {
    const out = await postJson(`/api/copilot/proposals/${encodeURIComponent(item.proposalId)}`, { action });
    if (out.ok) update(at, { ...item, status: action === 'accept' ? 'accepted' : 'rejected' });
    else fail(errorOf(out.body));
  }

  return (
    <section className="panel copilot" aria-label="Copilot">
      <h2>Copilot</h2>
      <ol className="copilot-items">
        {view.items.map((item, at) => (
          <li key={at} className={`copilot-${item.kind}`}>
            {item.kind === 'user' && <p>{item.text}</p>}
            {item.kind === 'assistant' && <p>{item.text}</p>}
            {item.kind === 'error' && <p role="alert">{item.text}</p>}
            {item.kind === 'tool' && (
              <p className={`tool-state tool-${item.state}`} title={item.error}>
                {item.name}: {item.state}
                {item.error && <span className="muted"> — {item.error}</span>}
              </p>
            )}
            {item.kind === 'checkpoint' && (
              <button type="button" disabled={item.reverted} onClick={() => void revert(at, item.checkpointId)}>
                {item.reverted ? 'Reverted' : 'Revert to before this edit'}
              </button>
            )}
            {item.kind === 'proposal' && (
              <div>
                <DiffView diff={item.diff} />
                {item.status === 'pending' ? (
                  <div className="copilot-actions">
                    <button type="button" onClick={() => void decide(at, item, 'accept')}>Accept</button>
                    <button type="button" onClick={() => void decide(at, item, 'reject')}>Reject</button>
                  </div>
                ) : (
                  <p className="muted">{item.status === 'accepted' ? 'Accepted' : 'Rejected'}</p>
                )}
              </div>
            )}
          </li>
        ))}
      </ol>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <textarea aria-label="Ask the copilot" value={draft} placeholder="Ask the copilot to build or change this workflow" onChange={(e) => setDraft(e.target.value)} rows={3} />
        <label className="copilot-propose">
          <input type="checkbox" checked={propose} onChange={(e) => setPropose(e.target.checked)} /> Show edits as a diff first
        </label>
        <button type="submit" disabled={view.busy || draft.trim() === ''}>
          {view.busy ? 'Working…' : 'Send'}
        </button>
      </form>
    </section>
  );
}
