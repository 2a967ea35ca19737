import type { ChatItem, WorkflowDiff } from './chatStream';
import { TOOL_STATE_LABEL, toolDisplayName } from './toolNames';
import { parseMarkdown, type Span } from './markdown';
import { Icon } from '../ui/icons';

function Spans({ spans }: { spans: Span[] }) {
  return spans.map((s, i) => (s.kind === 'bold' ? <strong key={i}>{s.text}</strong> : s.kind === 'code' ? <code key={i}>{s.text}</code> : s.text));
}

function List({ ordered, items }: { ordered: boolean; items: Span[][] }) {
  const Tag = ordered ? 'ol' : 'ul';
  return (
    <Tag>
      {items.map((item, j) => (
        <li key={j}>
          <Spans spans={item} />
        </li>
      ))}
    </Tag>
  );
}

/** The copilot's answer with its Markdown drawn: paragraphs, lists, code. */
function Answer({ text }: { text: string }) {
  return (
    <div className="copilot-bubble copilot-md">
      {parseMarkdown(text).map((b, i) =>
        b.kind === 'paragraph' ? (
          <p key={i}>
            <Spans spans={b.spans} />
          </p>
        ) : b.kind === 'code' ? (
          <pre key={i}>{b.text}</pre>
        ) : (
          <List key={i} ordered={b.ordered} items={b.items} />
        ),
      )}
    </div>
  );
}

function DiffView({ diff }: { diff: WorkflowDiff }) {
  const line = (sign: string, text: string, key: string) => (
    <li key={key} className={`diff-${sign === '+' ? 'add' : sign === '-' ? 'remove' : 'change'}`}>
      <span className="diff-sign" aria-hidden="true">{sign}</span> {text}
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

export type ProposalItem = Extract<ChatItem, { kind: 'proposal' }>;

/**
 * What a checkpoint's revert does. Every checkpoint stays revertible, an earlier turn's (a reopened chat's) too:
 * the copilot keeps the state before each edit and puts it back as one undoable edit, so what changed since goes too.
 */
const REVERT_TITLE = 'Put the workflow back as it was before this edit. Changes made since then are undone too; Undo brings them back.';
const REVERTED_TITLE = 'The workflow was put back as it was before this edit';

/** One entry of the conversation: a bubble for the user and the copilot, a status line for a tool call, a card for a checkpoint or a proposed diff. */
export function CopilotItem({ item, onRevert, onDecide }: { item: ChatItem; onRevert(checkpointId: string): void; onDecide(item: ProposalItem, action: 'accept' | 'reject'): void }) {
  switch (item.kind) {
    case 'user':
      return <p className="copilot-bubble">{item.text}</p>;
    case 'assistant':
      // A stopped answer keeps what it had written, with a muted note (alone when it stopped before any text).
      return item.stopped ? (
        <>
          {item.text && <Answer text={item.text} />}
          <p className="copilot-stopped">Stopped</p>
        </>
      ) : (
        <Answer text={item.text} />
      );
    case 'error':
      return (
        <p className="copilot-bubble" role="alert">
          {item.text}
        </p>
      );
    case 'tool':
      return (
        // The tool's display name ("Building your workflow"), its state beside it; the tool's own id is the line's title.
        <p className={`tool-state tool-${item.state}`} title={item.error ?? item.name} data-tool={item.name}>
          <span className="tool-dot" aria-hidden="true" />
          <span className="tool-name">{toolDisplayName(item.name)}</span>
          <span className="tool-label">{TOOL_STATE_LABEL[item.state]}</span>
          {item.error && <span className="tool-error-text">{item.error}</span>}
        </p>
      );
    case 'checkpoint':
      return (
        <div className="copilot-checkpoint">
          <span className="muted">Workflow edited</span>
          <button type="button" className="btn btn-sm btn-ghost" disabled={item.reverted} title={item.reverted ? REVERTED_TITLE : REVERT_TITLE} onClick={() => onRevert(item.checkpointId)}>
            <Icon name="undo" size={12} /> {item.reverted ? 'Reverted' : 'Revert to before this edit'}
          </button>
        </div>
      );
    case 'proposal':
      return (
        <div className="copilot-proposal">
          <strong>Proposed changes</strong>
          <DiffView diff={item.diff} />
          {item.status === 'pending' ? (
            <div className="copilot-actions">
              <button type="button" className="btn btn-sm btn-primary" onClick={() => onDecide(item, 'accept')}>
                Accept
              </button>
              <button type="button" className="btn btn-sm" onClick={() => onDecide(item, 'reject')}>
                Reject
              </button>
            </div>
          ) : (
            <p className={`pill ${item.status === 'accepted' ? 'pill-live' : ''}`}>{item.status === 'accepted' ? 'Accepted' : 'Rejected'}</p>
          )}
        </div>
      );
    default: {
      const never: never = item;
      return never;
    }
  }
}
