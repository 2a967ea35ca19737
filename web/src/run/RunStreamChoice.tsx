import { memo, useEffect, useRef, useState } from 'react';
import { STREAMING_BLOCK_TYPES } from '@weft/catalog';
import type { WorkflowState } from '@weft/workflow';
import { Icon } from '../ui/icons';

/** A block whose model tokens a run can stream (agent, translate, vision). */
export interface StreamableBlock {
  id: string;
  name: string;
}

/** The draft's enabled streaming blocks; `before` again when they are the same, so a memoised toolbar keeps its element. */
export function streamableBlocks(blocks: WorkflowState['blocks'] | undefined, before: readonly StreamableBlock[]): readonly StreamableBlock[] {
  const now = Object.values(blocks ?? {})
    .filter((b) => b.enabled !== false && STREAMING_BLOCK_TYPES.has(b.type))
    .map((b) => ({ id: b.id, name: b.name }));
  const same = now.length === before.length && now.every((b, i) => b.id === before[i]?.id && b.name === before[i]?.name);
  return same ? before : now;
}

/**
 * The run's `selectedOutputs`: undefined while every streaming block streams (the server's default),
 * else the ids of those still chosen (an empty list streams none).
 */
export function selectedOutputs(streamable: readonly StreamableBlock[], off: ReadonlySet<string>): string[] | undefined {
  if (!streamable.some((b) => off.has(b.id))) return undefined;
  return streamable.filter((b) => !off.has(b.id)).map((b) => b.id);
}

/**
 * The Run button's second half: which model blocks stream their tokens into the console while the
 * run goes (every one by default; a block turned off still runs, its output arrives when it ends).
 */
export const RunStreamChoice = memo(function RunStreamChoice({ streamable, off, onToggle }: { streamable: readonly StreamableBlock[]; off: ReadonlySet<string>; onToggle(id: string): void }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const away = (e: MouseEvent) => {
      if (root.current && e.target instanceof Node && !root.current.contains(e.target)) setOpen(false);
    };
    const escape = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', away);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('mousedown', away);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);
  const streaming = streamable.filter((b) => !off.has(b.id)).length;
  const summary = streaming === streamable.length ? 'all model blocks stream' : `${streaming} of ${streamable.length} model blocks stream`;
  return (
    <div className="menu run-choice" ref={root}>
      <button
        type="button"
        className={`btn btn-sm btn-run run-choice-toggle${streaming < streamable.length ? ' partial' : ''}`}
        aria-label="Streamed blocks"
        aria-haspopup="dialog"
        aria-expanded={open}
        title={`Streamed blocks: ${summary}`}
        onClick={() => setOpen((o) => !o)}
      >
        <Icon name="chevronDown" size={12} />
      </button>
      {open && (
        <div className="menu-pop run-choice-pop" role="dialog" aria-label="Stream model tokens of">
          <strong>Stream model tokens</strong>
          {streamable.length === 0 ? (
            <p className="muted">No agent, translate or vision block in this workflow: there is nothing to stream.</p>
          ) : (
            <>
              <p className="muted">Chosen blocks write their answer into the console as it comes; the others show it when they finish.</p>
              <div className="chips" role="group" aria-label="Streamed blocks">
                {streamable.map((b) => (
                  <label key={b.id} className={`chip ${off.has(b.id) ? '' : 'on'}`}>
                    <input type="checkbox" checked={!off.has(b.id)} onChange={() => onToggle(b.id)} />
                    {b.name}
                  </label>
                ))}
              </div>
            </>
          )}
        </div>
      )}
    </div>
  );
});
