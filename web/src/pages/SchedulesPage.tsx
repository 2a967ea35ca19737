import type { MouseEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, type Workspace } from '../api';
import { useSchedulePause, workspaceSchedulesKey } from '../deploy/ScheduleState';
import { fireTimeText } from '../panels/fields/schedule';
import { navigate } from '../router';
import { Icon } from '../ui/icons';
import { scheduleRows, schedulesByWorkflow, type ScheduleRow } from './schedules';

/** Opens a workflow in the editor on a plain click; a Ctrl/⌘/middle click keeps the link's own new tab. */
function openWorkflow(e: MouseEvent<HTMLAnchorElement>, workflowId: string) {
  if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(`/?workflow=${encodeURIComponent(workflowId)}`);
}

function Row({ row }: { row: ScheduleRow }) {
  const toggle = useSchedulePause(row.workflowId, row.blockId);
  const paused = row.status === 'paused';
  const at = (d: Date) => fireTimeText(d, row.timezone, row.subMinute);
  const name = `${row.workflowName} › ${row.blockName}`;
  return (
    <tr aria-label={name}>
      <td>
        <a href={`/?workflow=${encodeURIComponent(row.workflowId)}`} onClick={(e) => openWorkflow(e, row.workflowId)}>
          {row.workflowName}
        </a>
      </td>
      <td>
        {row.blockName}
        {!row.inDraft && <div className="muted">Removed from the draft: deploy again to stop it</div>}
      </td>
      <td>
        {row.frequency}
        <div>
          <code>{row.cronExpression}</code>
        </div>
      </td>
      <td>{row.timezone}</td>
      <td>{row.nextRun ? <time dateTime={row.nextRun.toISOString()}>{at(row.nextRun)}</time> : <span className="muted">—</span>}</td>
      <td>{row.lastRun ? <time dateTime={row.lastRun.toISOString()}>{at(row.lastRun)}</time> : <span className="muted">Not run yet</span>}</td>
      <td>
        <span className={`pill ${paused ? 'pill-warn' : 'pill-live'}`}>{paused ? 'Paused' : 'Active'}</span>
      </td>
      <td>
        <button type="button" className="btn btn-sm" aria-label={`${paused ? 'Resume' : 'Pause'} ${name}`} disabled={toggle.isPending} onClick={() => toggle.mutate(!paused)}>
          {paused ? 'Resume' : 'Pause'}
        </button>
      </td>
    </tr>
  );
}

/**
 * The workspace's schedules: every schedule of its workflows (`GET /api/schedules?workspaceId=`, one
 * request for all of them), with its workflow (a link to it), trigger block, frequency and cron, timezone, next and last
 * run and status, each paused or resumed in place.
 */
export function SchedulesPage({ workspace }: { workspace: Workspace | undefined }) {
  const workspaceId = workspace?.id ?? '';
  const workflows = useQuery({ queryKey: ['workflows', workspaceId], queryFn: () => api.workflows(workspaceId), enabled: Boolean(workspace) });
  // Read again now and then, so the next runs move on as the schedules fire.
  const schedules = useQuery({ queryKey: workspaceSchedulesKey(workspaceId), queryFn: () => api.workspaceSchedules(workspaceId), enabled: Boolean(workspace), refetchInterval: 30_000 });
  const rows = scheduleRows(workflows.data ?? [], schedulesByWorkflow(schedules.data ?? []));
  const loading = !workspace || workflows.isLoading || schedules.isLoading;
  return (
    <div className="page">
      <section className="page-body" aria-label="Schedules">
        <h1>Schedules</h1>
        <p className="settings-sub">
          Every schedule of {workspace ? `the workspace “${workspace.name}”` : 'the workspace'}: the schedule triggers of its deployed workflows. To stop one for good,
          change or remove its trigger in the workflow and deploy again, or undeploy the workflow.
        </p>
        {workflows.error && (
          <p className="form-error" role="alert">
            Failed to load workflows: {workflows.error.message}
          </p>
        )}
        {schedules.error && (
          <p className="form-error" role="alert">
            Failed to load the schedules: {schedules.error.message}
          </p>
        )}
        {rows.length > 0 && (
          <table className="data-table" aria-label="Workspace schedules">
            <thead>
              <tr>
                <th>Workflow</th>
                <th>Trigger block</th>
                <th>Frequency</th>
                <th>Timezone</th>
                <th>Next run</th>
                <th>Last run</th>
                <th>Status</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <Row key={`${row.workflowId}:${row.blockId}`} row={row} />
              ))}
            </tbody>
          </table>
        )}
        {loading && rows.length === 0 && <p className="muted">Loading…</p>}
        {!loading && rows.length === 0 && !workflows.error && !schedules.error && (
          <div className="page-empty">
            <Icon name="ScheduleIcon" size={28} />
            <p>No schedules yet.</p>
            <p className="muted">Set a workflow&apos;s starter to run on a schedule, or add a Schedule block, then deploy it: its schedule shows here.</p>
          </div>
        )}
      </section>
    </div>
  );
}
