import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Background, Controls, ReactFlow, ReactFlowProvider, type Edge, type Node } from '@xyflow/react';
import { api, type WorkflowState } from './api';

function toFlow(state: WorkflowState): { nodes: Node[]; edges: Edge[] } {
  const nodes = Object.values(state.blocks).map((b) => ({
    id: b.id,
    position: b.position,
    data: { label: b.name },
    className: `block block-${b.type}${b.enabled ? '' : ' disabled'}`,
  }));
  const edges = state.edges.map((e) => ({ id: e.id, source: e.source, target: e.target }));
  return { nodes, edges };
}

/** Draws one workflow's blocks and edges. */
export function Canvas({ workflowId }: { workflowId: string }) {
  const workflow = useQuery({ queryKey: ['workflow', workflowId], queryFn: () => api.workflow(workflowId) });
  const flow = useMemo(() => (workflow.data ? toFlow(workflow.data.state) : { nodes: [], edges: [] }), [workflow.data]);
  if (workflow.isLoading) return <p className="empty">Loading…</p>;
  if (workflow.error) return <p className="error">{workflow.error.message}</p>;
  return (
    <div className="canvas" data-testid="canvas">
      <header className="canvas-header">
        <strong>{workflow.data?.name}</strong> <span className="muted">version {workflow.data?.version}</span>
      </header>
      <ReactFlowProvider>
        <ReactFlow nodes={flow.nodes} edges={flow.edges} fitView proOptions={{ hideAttribution: true }}>
          <Background />
          <Controls />
        </ReactFlow>
      </ReactFlowProvider>
    </div>
  );
}
