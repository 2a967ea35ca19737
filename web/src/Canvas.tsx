import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  applyEdgeChanges,
  applyNodeChanges,
  Background,
  Controls,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type Connection,
  type Edge,
  type EdgeChange,
  type NodeChange,
  type OnDelete,
  type OnNodeDrag,
} from '@xyflow/react';
import type { Command, Position, WorkflowState } from '@weft/workflow';
import { api } from './api';
import { BlockNodeView } from './canvas/BlockNodeView';
import { toEdges, toNodes, type BlockNode } from './canvas/flow';
import { Toolbar } from './canvas/Toolbar';
import { newId, useWorkflowSession } from './collab/useWorkflowSession';
import { BlockPanel } from './panels/BlockPanel';
import { HistoryPanel } from './panels/HistoryPanel';
import { VariablesPanel } from './panels/VariablesPanel';

const nodeTypes = { block: BlockNodeView };
/** Room a block takes, for placing a new one where it covers none. */
const FOOTPRINT = { x: 220, y: 110 };

/** The view's centre, moved down past any block already there. */
function freeSpot(center: Position, state: WorkflowState): Position {
  const spot = { x: Math.round(center.x), y: Math.round(center.y) };
  const taken = (p: Position) => Object.values(state.blocks).some((b) => Math.abs(b.position.x - p.x) < FOOTPRINT.x && Math.abs(b.position.y - p.y) < FOOTPRINT.y);
  while (taken(spot)) spot.y += FOOTPRINT.y + 40;
  return spot;
}

/** The collaborative editor of one loaded workflow. */
function Editor({ workflowId, name }: { workflowId: string; name: string }) {
  const blocks = useQuery({ queryKey: ['blocks'], queryFn: api.blocks, staleTime: Infinity });
  const { snapshot, live, edit, dismissMessage } = useWorkflowSession(workflowId, blocks.data);
  const flow = useReactFlow<BlockNode>();
  const pane = useRef<HTMLDivElement>(null);
  const [nodes, setNodes] = useState<BlockNode[]>([]);
  const [edges, setEdges] = useState<Edge[]>([]);
  const catalogue = useMemo(() => new Map(blocks.data?.map((b) => [b.type, b])), [blocks.data]);
  const palette = useMemo(() => blocks.data?.filter((b) => b.type !== 'starter' && !b.hideFromToolbar) ?? [], [blocks.data]);
  const state = snapshot?.state;

  useEffect(() => {
    if (!state) return;
    const describe = (type: string) => {
      const definition = catalogue.get(type);
      return definition && { name: definition.name, color: definition.bgColor };
    };
    setNodes((prev) => toNodes(state, prev, describe));
    setEdges((prev) => toEdges(state, prev));
  }, [state, catalogue]);

  // Removals go through the domain (onDelete); the canvas applies only what is local to it.
  const onNodesChange = useCallback((changes: NodeChange<BlockNode>[]) => setNodes((ns) => applyNodeChanges(changes.filter((c) => c.type !== 'remove'), ns)), []);
  const onEdgesChange = useCallback((changes: EdgeChange[]) => setEdges((es) => applyEdgeChanges(changes.filter((c) => c.type !== 'remove'), es)), []);
  const onNodeDragStop: OnNodeDrag<BlockNode> = (_event, _node, dragged) => {
    const moves: Command[] = dragged
      .map((n) => ({ type: 'moveBlock' as const, id: n.id, position: { x: Math.round(n.position.x), y: Math.round(n.position.y) } }))
      .filter((m) => state?.blocks[m.id] && (state.blocks[m.id]?.position.x !== m.position.x || state.blocks[m.id]?.position.y !== m.position.y));
    if (moves.length > 0) edit(moves);
  };
  const onConnect = (c: Connection) => edit([{ type: 'addEdge', id: newId(), source: c.source, target: c.target }]);
  const remove = (nodeIds: string[], edgeIds: string[]) => {
    const commands: Command[] = [...nodeIds.map((id) => ({ type: 'removeBlock' as const, id })), ...edgeIds.map((id) => ({ type: 'removeEdge' as const, id }))];
    if (commands.length > 0) edit(commands);
  };
  const onDelete: OnDelete<BlockNode> = ({ nodes: gone, edges: cut }) => remove(gone.map((n) => n.id), cut.map((e) => e.id));
  const add = (blockType: string) => {
    if (!state) return;
    const rect = pane.current?.getBoundingClientRect();
    const center = rect ? flow.screenToFlowPosition({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 }) : { x: 0, y: 0 };
    edit([{ type: 'addBlock', id: newId(), blockType, position: freeSpot(center, state) }]);
  };

  if (!snapshot || snapshot.status === 'loading') return <p className="empty">Loading…</p>;
  if (snapshot.status === 'failed') return <p className="error">{snapshot.message}</p>;
  const selectedNodes = nodes.filter((n) => n.selected);
  const selectedEdges = edges.filter((e) => e.selected);
  const only = selectedNodes.length === 1 ? snapshot.state.blocks[selectedNodes[0]?.id ?? ''] : undefined;
  return (
    <div className="canvas" data-testid="canvas">
      <header className="canvas-header">
        <strong>{name}</strong> <span className="muted">version {snapshot.version}</span>{' '}
        <span className="muted">{snapshot.pending > 0 ? `saving ${snapshot.pending}` : 'saved'}</span>{' '}
        <span className="muted">{live ? 'live' : 'offline'}</span>
      </header>
      <Toolbar
        palette={palette}
        canUndo={snapshot.state.history.past.length > 0}
        canRedo={snapshot.state.history.future.length > 0}
        canDelete={selectedNodes.length + selectedEdges.length > 0}
        onAdd={add}
        onUndo={() => edit([{ type: 'undo' }])}
        onRedo={() => edit([{ type: 'redo' }])}
        onDelete={() => remove(selectedNodes.map((n) => n.id), selectedEdges.map((e) => e.id))}
      />
      {snapshot.message && (
        <p role="alert" className="error">
          {snapshot.message}{' '}
          <button type="button" onClick={dismissMessage}>
            Dismiss
          </button>
        </p>
      )}
      <div className="editor-body">
        <div className="flow" ref={pane}>
          <ReactFlow
            nodes={nodes}
            edges={edges}
            nodeTypes={nodeTypes}
            onNodesChange={onNodesChange}
            onEdgesChange={onEdgesChange}
            onNodeDragStop={onNodeDragStop}
            onConnect={onConnect}
            onDelete={onDelete}
            deleteKeyCode={['Backspace', 'Delete']}
            fitView
            fitViewOptions={{ maxZoom: 1 }}
            proOptions={{ hideAttribution: true }}
          >
            <Background />
            <Controls />
          </ReactFlow>
        </div>
        <aside className="panels">
          {only && <BlockPanel key={only.id} block={only} definition={catalogue.get(only.type)} edit={edit} />}
          <HistoryPanel history={snapshot.state.history} onRevert={(index) => edit([{ type: 'revertToHistory', index }])} />
          <VariablesPanel variables={snapshot.state.variables} edit={edit} />
        </aside>
      </div>
    </div>
  );
}

/** Draws one workflow's blocks and edges and lets the user edit them together with others. */
export function Canvas({ workflowId }: { workflowId: string }) {
  // The workflow's entry first: it waits for the editor to start a just-created workflow.
  const workflow = useQuery({ queryKey: ['workflow', workflowId], queryFn: () => api.workflow(workflowId) });
  if (workflow.isLoading) return <p className="empty">Loading…</p>;
  if (workflow.error || !workflow.data) return <p className="error">{workflow.error?.message ?? 'Workflow not found'}</p>;
  return (
    <ReactFlowProvider>
      <Editor key={workflowId} workflowId={workflowId} name={workflow.data.name} />
    </ReactFlowProvider>
  );
}
