import type { Workspace } from '../api';
import { Icon } from '../ui/icons';
import { SIDEBAR_SHORTCUT } from './keys';
import { useCreateWorkflow } from './useCreateWorkflow';

/** The editor's place when no workflow is open: what to do (where the workflows are, the sidebar open or a rail), and a "New workflow" button like the sidebar's. */
export function EmptyHome({ workspace, hasWorkflows, sidebarOpen, onOpen }: { workspace: Workspace | undefined; hasWorkflows: boolean; sidebarOpen: boolean; onOpen(id: string): void }) {
  const pick = sidebarOpen ? 'Pick one in the sidebar, or start a new one.' : `Show the sidebar (the button at the top left, or ${SIDEBAR_SHORTCUT}) to pick one, or start a new one.`;
  const create = useCreateWorkflow(workspace?.id ?? '', onOpen);
  return (
    <div className="empty-state">
      <span className="empty-state-mark" aria-hidden="true">
        <Icon name="WorkflowIcon" size={22} />
      </span>
      <h2>{hasWorkflows ? 'No workflow open' : 'No workflows yet'}</h2>
      <p>{hasWorkflows ? pick : 'Create your first workflow to start building an automation.'}</p>
      <button type="button" className="btn btn-primary" disabled={!workspace || create.isPending} onClick={() => create.mutate(null)}>
        <Icon name="plus" size={14} /> New workflow
      </button>
    </div>
  );
}
