import { useCallback, useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatCost } from '@weft/catalog';
import { api } from '../api';
import { Icon } from '../ui/icons';
import { errorHint } from './errorHints';
import { JsonView, StoredValueLoader } from './JsonView';
import { attemptKey, attemptLabel, totals, type BlockEntry, type RunView } from './runState';
import { RUN_TRIGGERS, triggerLabel } from './triggers';

const STATUS_TEXT: Record<string, string> = { starting: 'Starting', running: 'Running', succeeded: 'Succeeded', failed: 'Failed', cancelled: 'Cancelled', done: 'Done', skipped: 'Skipped' };

export const formatDuration = (ms: number | undefined | null) => (ms === undefined || ms === null ? '' : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`);

/** A line under an error saying what to do about it, when the console can tell (`errorHint`). */
function ErrorHint({ error }: { error: string }) {
  const hint = errorHint(error);
  return hint ? <span className="log-hint">{hint}</span> : null;
}

function Entry({ entry, onRerun, onSelect, hinted }: { entry: BlockEntry; onRerun?: () => void; onSelect(): void; hinted?: boolean }) {
  const [open, setOpen] = useState(entry.status === 'failed');
  // A block that fails shows its error at once.
  useEffect(() => {
    if (entry.status === 'failed') setOpen(true);
  }, [entry.status]);
  const tokens = entry.tokens?.total ?? ((entry.tokens?.prompt ?? 0) + (entry.tokens?.completion ?? 0) || undefined);
  return (
    <li className="log-entry" aria-label={`Log of ${entry.blockName}`}>
      <button type="button" className="log-row" aria-expanded={open} onClick={() => setOpen((o) => !o)} onDoubleClick={onSelect}>
        <Icon name={open ? 'chevronDown' : 'chevron'} size={12} />
        <span className={`run-status ${entry.status}`}>{STATUS_TEXT[entry.status]}</span>
        <span className="log-name">{entry.blockName}</span>
        {entry.iteration && <span className="badge">{entry.iteration}</span>}
        {entry.warning && (
          <span className="badge warning" title={entry.warning}>
            warning
          </span>
        )}
        {entry.reused && (
          <span className="badge reused" title="Not run again: its outcome is the one of the run this run reran">
            reused
          </span>
        )}
        <span className="log-meta">
          {entry.attempts !== undefined && entry.attempts > 1 && <span>{entry.attempts} tries</span>}
          {tokens !== undefined && <span>{tokens} tokens</span>}
          {entry.cost?.total !== undefined && <span>{formatCost(entry.cost.total)}</span>}
          <span>{formatDuration(entry.durationMs)}</span>
        </span>
      </button>
      {/* Shown whether the entry is open or not: the output is there, but not all of it (unlike an error, the block succeeded). */}
      {entry.warning && (
        <p className="log-warning" role="note" aria-label={`Warning of ${entry.blockName}`}>
          {entry.warning}
        </p>
      )}
      {(open || (entry.status === 'running' && entry.streamed)) && (
        <div className="log-detail">
          {(entry.status === 'running' || entry.status === 'cancelled') && entry.streamed && (
            <div>
              <h3>{entry.status === 'running' ? 'Streaming' : 'Streamed before it was cancelled'}</h3>
              <pre className="log-stream" aria-label={`Streamed output of ${entry.blockName}`}>
                {entry.streamed}
              </pre>
            </div>
          )}
          {entry.toolCalls.length > 0 && (
            <div>
              <h3>Tool calls</h3>
              {entry.toolCalls.map((c) => (
                <div key={c.id} className="mono">
                  {c.name} — {c.state}
                </div>
              ))}
            </div>
          )}
          {entry.error && (
            <div>
              <h3>Error</h3>
              <pre className="log-error">{entry.error}</pre>
              {!hinted && <ErrorHint error={entry.error} />}
            </div>
          )}
          {open && entry.attemptLog && (
            <div>
              <h3>Attempts</h3>
              <ol className="log-attempts" aria-label={`Attempts of ${entry.blockName}`}>
                {entry.attemptLog.map((t, _i, all) => (
                  <li key={attemptKey(t)} className="mono">
                    {attemptLabel(t, all)}
                    {t.startedAt && ` at ${new Date(t.startedAt).toLocaleTimeString()}`}
                    {t.durationMs !== undefined && `, ${formatDuration(t.durationMs)}`}: {t.error ? <span className="log-error">{t.error}</span> : 'answered'}
                  </li>
                ))}
              </ol>
            </div>
          )}
          {open && entry.input !== undefined && (
            <div>
              <h3>Input</h3>
              <JsonView value={entry.input} label={`Input of ${entry.blockName}`} />
            </div>
          )}
          {open && entry.output !== undefined && (
            <div>
              <h3>Output</h3>
              <JsonView value={entry.output} label={`Output of ${entry.blockName}`} />
            </div>
          )}
          {open && onRerun && (
            <div>
              <button type="button" className="btn btn-sm" onClick={onRerun}>
                <Icon name="play" size={12} /> Run from {entry.blockName}
              </button>
            </div>
          )}
        </div>
      )}
    </li>
  );
}

function History({ workflowId, current, onOpen }: { workflowId: string; current: string | null; onOpen(id: string): void }) {
  const [status, setStatus] = useState('');
  const [trigger, setTrigger] = useState('');
  const list = useQuery({ queryKey: ['executions', workflowId, status, trigger], queryFn: () => api.executions(workflowId, { status, trigger }), refetchInterval: 5_000 });
  return (
    <>
      <div className="history-filters">
        <select className="input select" aria-label="Filter runs by status" value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="">Any status</option>
          {['running', 'succeeded', 'failed', 'cancelled'].map((s) => (
            <option key={s} value={s}>
              {STATUS_TEXT[s]}
            </option>
          ))}
        </select>
        <select className="input select" aria-label="Filter runs by trigger" value={trigger} onChange={(e) => setTrigger(e.target.value)}>
          <option value="">Any trigger</option>
          {RUN_TRIGGERS.map((t) => (
            <option key={t} value={t}>
              {triggerLabel(t)}
            </option>
          ))}
        </select>
      </div>
      {list.error && <p className="pad error">{list.error.message}</p>}
      <ul className="run-list" aria-label="Past runs">
        {list.data?.executions.map((e) => (
          <li key={e.executionId}>
            <button type="button" aria-current={e.executionId === current} onClick={() => onOpen(e.executionId)}>
              <span className={`run-status ${e.status}`}>{STATUS_TEXT[e.status] ?? e.status}</span>
              <span className="badge">{triggerLabel(e.trigger)}</span>
              <span>{new Date(e.startedAt).toLocaleString()}</span>
              <span className="log-meta">
                {e.cost?.total !== undefined && <span>{formatCost(e.cost.total)}</span>}
                <span>{formatDuration(e.durationMs)}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {list.data?.executions.length === 0 && <p className="pad muted">No runs match.</p>}
    </>
  );
}

/** The run console under the canvas: the current run's blocks with their logs, and the workflow's run history. */
export function RunConsole({
  workflowId,
  run,
  onCancel,
  onOpen,
  onRerunFrom,
  onSelectBlock,
}: {
  workflowId: string;
  run: RunView | null;
  onCancel(): void;
  onOpen(executionId: string): void;
  onRerunFrom(blockId: string): void;
  onSelectBlock(blockId: string): void;
}) {
  const [tab, setTab] = useState<'run' | 'history'>('run');
  // Collapsed until there is a run to show (or the user opens it), so the canvas keeps its room.
  const [collapsed, setCollapsed] = useState(true);
  const shownRun = run?.executionId ?? (run ? 'new' : null);
  useEffect(() => {
    if (shownRun) setCollapsed(false);
  }, [shownRun]);
  const live = run?.status === 'running' || run?.status === 'starting';
  // The history lists a run the moment it starts and shows how it ended the moment it ends (not at its next poll).
  const queryClient = useQueryClient();
  const listed = run?.executionId ? `${run.executionId}:${live ? 'live' : run.status}` : null;
  useEffect(() => {
    if (listed) void queryClient.invalidateQueries({ queryKey: ['executions', workflowId] });
  }, [listed, queryClient, workflowId]);
  const sum = run ? totals(run) : null;
  const executionId = run?.executionId;
  const loadValue = useCallback((ref: string) => (executionId ? api.executionValue(executionId, ref) : Promise.reject(new Error('The run has not started yet'))), [executionId]);
  return (
    <section className={`console${collapsed ? ' collapsed' : ''}`} aria-label="Run console" tabIndex={-1}>
      <div className="console-head">
        <h2>Console</h2>
        <div className="console-tabs" role="tablist">
          <button type="button" role="tab" aria-selected={tab === 'run'} onClick={() => (setTab('run'), setCollapsed(false))}>
            Run
          </button>
          <button type="button" role="tab" aria-selected={tab === 'history'} onClick={() => (setTab('history'), setCollapsed(false))}>
            History
          </button>
        </div>
        {run && (
          <div className="console-summary">
            <span className={`run-status ${run.status}`} aria-label="Run status">
              {STATUS_TEXT[run.status]}
            </span>
            {sum && sum.tokens > 0 && <span>{sum.tokens} tokens</span>}
            {sum && sum.cost > 0 && <span>{formatCost(sum.cost)}</span>}
            {run.durationMs !== undefined && <span>{formatDuration(run.durationMs)}</span>}
            {live && (
              <button type="button" className="btn btn-sm btn-danger" onClick={onCancel} disabled={!run.executionId}>
                Cancel run
              </button>
            )}
          </div>
        )}
        <button type="button" className="icon-btn" style={{ marginLeft: run ? 0 : 'auto' }} aria-label={collapsed ? 'Expand console' : 'Collapse console'} onClick={() => setCollapsed((c) => !c)}>
          <Icon name={collapsed ? 'chevronUp' : 'chevronDown'} size={14} />
        </button>
      </div>
      {!collapsed && (
        <div className="console-body">
          {tab === 'history' ? (
            <History workflowId={workflowId} current={run?.executionId ?? null} onOpen={(id) => (onOpen(id), setTab('run'))} />
          ) : !run ? (
            <p className="pad muted">Press Run to run the workflow; each block’s input, output and timing show here.</p>
          ) : (
            <StoredValueLoader.Provider value={loadValue}>
              {run.error && (
                <p className="pad">
                  <span className="log-error" role="alert">
                    {run.error}
                  </span>
                  <ErrorHint error={run.error} />
                </p>
              )}
              <ul className="log-list" aria-label="Block logs">
                {run.entries.map((e) => (
                  <Entry key={e.key} entry={e} hinted={Boolean(e.error && run.error?.includes(e.error))} onSelect={() => onSelectBlock(e.blockId)} onRerun={run.executionId && !live ? () => onRerunFrom(e.blockId) : undefined} />
                ))}
              </ul>
              {run.output !== undefined && !live && (
                <div className="log-detail">
                  <h3>Workflow output</h3>
                  <JsonView value={run.output} label="Workflow output" />
                </div>
              )}
            </StoredValueLoader.Provider>
          )}
        </div>
      )}
    </section>
  );
}
