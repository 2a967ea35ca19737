import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './api';
import { Canvas } from './Canvas';

/** The workflow named in the address (`?workflow=<id>`), so a link opens it. */
function linkedWorkflow(): string | null {
  return new URLSearchParams(window.location.search).get('workflow');
}

/** Workspace sidebar with its workflows, and the canvas of the open one. */
export function App() {
  const queryClient = useQueryClient();
  const workspaces = useQuery({ queryKey: ['workspaces'], queryFn: api.workspaces });
  const [workspaceId, setWorkspaceId] = useState<string | null>(null);
  const workspace = workspaces.data?.find((w) => w.id === workspaceId) ?? workspaces.data?.[0];
  const workflows = useQuery({
    queryKey: ['workflows', workspace?.id],
    queryFn: () => api.workflows(workspace?.id ?? ''),
    enabled: Boolean(workspace),
  });
  const [activeId, setActiveId] = useState<string | null>(linkedWorkflow);

  // Spec 000 §4: the first workflow becomes active when none is.
  useEffect(() => {
    if (!activeId && workflows.data && workflows.data.length > 0) setActiveId(workflows.data[0]?.id ?? null);
  }, [activeId, workflows.data]);

  useEffect(() => {
    if (activeId && activeId !== linkedWorkflow()) window.history.replaceState(null, '', `?workflow=${encodeURIComponent(activeId)}`);
  }, [activeId]);

  const create = useMutation({
    mutationFn: () => api.createWorkflow(workspace?.id ?? ''),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: ['workflows', workspace?.id] });
      setActiveId(created.id);
    },
  });

  return (
    <div className="app">
      <aside className="sidebar">
        <h1>Weft</h1>
        {workspaces.data && workspaces.data.length > 1 ? (
          <select aria-label="Workspace" value={workspace?.id} onChange={(e) => setWorkspaceId(e.target.value)}>
            {workspaces.data.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        ) : (
          <div className="workspace">{workspace?.name ?? (workspaces.isLoading ? 'Loading…' : 'No workspace')}</div>
        )}
        <button type="button" disabled={!workspace || create.isPending} onClick={() => create.mutate()}>
          New workflow
        </button>
        {create.error && <p className="error">Failed to create workflow: {create.error.message}</p>}
        {workflows.error && <p className="error">Failed to load workflows: {workflows.error.message}</p>}
        <ul className="workflows" aria-label="Workflows">
          {workflows.data?.map((w) => (
            <li key={w.id}>
              <button type="button" className={w.id === activeId ? 'active' : ''} onClick={() => setActiveId(w.id)}>
                <span className="swatch" style={{ background: w.color }} />
                {w.name}
              </button>
            </li>
          ))}
        </ul>
      </aside>
      <main className="main">{activeId ? <Canvas key={activeId} workflowId={activeId} /> : <p className="empty">Create a workflow to start.</p>}</main>
    </div>
  );
}
