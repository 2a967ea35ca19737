import { lazy, memo, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type DragEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  applyEdgeChanges,
  Background,
  BackgroundVariant,
  Controls,
  ReactFlow,
  ReactFlowProvider,
  getViewportForBounds,
  useReactFlow,
  useStoreApi,
  type Connection,
  type Edge,
  type EdgeChange,
  type NodeChange,
  type NodeHandle,
  type OnDelete,
  type OnNodeDrag,
  type ReactFlowState,
} from '@xyflow/react';
import { initialState, type Command, type History, type Position, type WorkflowState } from '@weft/workflow';
import { api, ApiError } from './api';
import { BlockNodeView, ContainerNodeView } from './canvas/BlockNodeView';
import { CanvasContext } from './canvas/CanvasContext';
import { copyBlocks, loadClip, pasteCommands, pasteOffset, storeClip, withoutSecondStarter, withTriggersAtTopLevel, type Clip } from './canvas/clipboard';
import { connectionProblem, edgeFor } from './canvas/connect';
import { applyMeasured, CONTAINER_SIZE, drawnFor, NOTHING_DRAWN, type BlockNode, type Drawn } from './canvas/flow';
import { boundsOf, boxesOf, cull, cullAgain, keepHandles, sameOr, viewOf, windowAround, windowServes, withKnownHandles, type Culled } from './canvas/cull';
import { CanvasNodes, CanvasNodesContext, MiniMap } from './canvas/MiniMap';
import { BLOCK_DRAG_TYPE, Palette } from './canvas/Palette';
import { absolutePosition, clickPlacement, containerAt, dropPlacement, FOOTPRINT, growCommands, mayNest, resizeCommands, type Rect } from './canvas/place';
import { unloadedMessage } from './collab/session';
import { newId, useWorkflowSession } from './collab/useWorkflowSession';
import { BlockPanel } from './panels/BlockPanel';
import { guardDrafts, saveLabel, useUnsentDrafts } from './panels/drafts';
import { HistoryPanel } from './panels/HistoryPanel';
import { VariablesPanel } from './panels/VariablesPanel';
import { CopilotPanel } from './copilot/CopilotPanel';
import { RunConsole } from './run/RunConsole';
import { RunInputDialog } from './run/RunInputDialog';
import { runPath } from './run/runPath';
import { RunStreamChoice, selectedOutputs, streamableBlocks, type StreamableBlock } from './run/RunStreamChoice';
import { blockStatuses, inputFields } from './run/runState';
import { RunStatusContext } from './run/RunStatusContext';
import { useRun } from './run/useRun';
import { CANVAS_KEYS, isCanvasShortcutAt, selectsTextOutsideCanvas } from './shell/keys';
import { PaneToggle } from './shell/PaneToggle';
import { PanelResizer } from './shell/PanelResizer';
import { endPanelShowing, showPanelForNow, toggleLayout, useLayout } from './shell/useLayout';
import { useAfterPaint } from './ui/afterPaint';
import { useConfirm } from './ui/confirm';
import { LoadBoundary } from './ui/LoadBoundary';
import { Icon } from './ui/icons';
import { useToast } from './ui/toast';

/** The deploy dialog (with the catalogue's deploy checks) loads when first opened. */
const DeployDialog = lazy(() => import('./deploy/DeployDialog').then((m) => ({ default: m.DeployDialog })));

const nodeTypes = { block: BlockNodeView, container: ContainerNodeView };
/** The block panel renders again only when its block, the state or its other props change (not on every move of a drag). */
const SelectedBlockPanel = memo(BlockPanel);
const CONTAINER_DATA: Record<string, Record<string, unknown>> = {
  loop: { ...CONTAINER_SIZE, loopType: 'for', count: 5 },
  parallel: { ...CONTAINER_SIZE, parallelType: 'collection', count: 5 },
};
/** What a reader is told when they try to change a workflow. */
const READ_ONLY_MESSAGE = 'You can view this workflow but not change it: you have read access to its workspace';
/** Blocks above which the canvas draws only what is in view and fits the view at half size at the least. */
const LARGE_CANVAS = 300;
/** The starter block, looked up by the id it had last time (a search over every block only when that fails). */
function useStarter(blocks: WorkflowState['blocks'] | undefined) {
  const id = useRef<string | undefined>(undefined);
  if (!blocks) return undefined;
  const known = id.current === undefined ? undefined : blocks[id.current];
  if (known?.type === 'starter') return known;
  const found = Object.values(blocks).find((b) => b.type === 'starter');
  id.current = found?.id;
  return found;
}
/**
 * React Flow's options as constants, and its callbacks stable (`useStable`): it copies each prop that
 * changes identity into its store, and every store update runs each subscriber's selector (on a large
 * canvas, its visible-node and visible-edge checks over every block and edge). A new object per render
 * made a remote edit cost five store updates instead of one.
 */
const DELETE_KEYS = ['Backspace', 'Delete'];
const MULTI_SELECT_KEYS = ['Meta', 'Control', 'Shift'];
const PRO_OPTIONS = { hideAttribution: true };
/** Pressing on the canvas unselects text selected outside it (React Flow's pane keeps it), so its shortcuts apply. */
const dropTextSelection = () => {
  const selection = window.getSelection();
  if (selectsTextOutsideCanvas(selection)) selection?.removeAllRanges();
};
const EDGE_OPTIONS = { type: 'smoothstep' };
/** What React Flow draws over the canvas: one element for every render, so an edit does not render them again. */
const FLOW_CHROME = (
  <>
    <Background variant={BackgroundVariant.Dots} gap={18} size={1.2} color="#cbd2dc" />
    <Controls showInteractive={false} />
    <MiniMap />
  </>
);
/** The layout's toggles: one function each for every render, so the memoised palette is not drawn again. */
const togglePalette = () => toggleLayout('paletteOpen');
const togglePanel = () => toggleLayout('panelOpen');

/** A plain click on a block (no multi-select key) shows the side panel with its form, even if it was closed (for now: showPanelForNow). */
const showPanelOnClick = (e: { ctrlKey: boolean; metaKey: boolean; shiftKey: boolean }) => {
  if (!e.ctrlKey && !e.metaKey && !e.shiftKey) showPanelForNow();
};

/** The commands that put a block into `parentId` (or at the top level) at the absolute point `at`. */
function placeCommands(state: WorkflowState, id: string, at: Position, parentId: string | null): Command[] {
  const base = parentId ? absolutePosition(state, parentId) : { x: 0, y: 0 };
  const position = { x: Math.round(at.x - base.x), y: Math.round(at.y - base.y) };
  const current = state.blocks[id]?.data.parentId ?? null;
  return [...(current !== parentId ? [{ type: 'setParent' as const, id, parentId }] : []), { type: 'moveBlock', id, position }];
}

function ToolButton({ label, icon, onClick, disabled, shortcut }: { label: string; icon: string; onClick(): void; disabled?: boolean; shortcut?: string }) {
  return (
    <button type="button" className="tool-btn" aria-label={label} title={shortcut ? `${label} (${shortcut})` : label} disabled={disabled} onClick={onClick}>
      <Icon name={icon} />
    </button>
  );
}

/** A function whose identity never changes and that calls the latest `fn`, so memoised children skip renders. */
function useStable<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const latest = useRef(fn);
  latest.current = fn;
  return useCallback((...args: A) => latest.current(...args), []);
}

/**
 * The history panel a frame after the canvas: every edit shifts its rows, and drawing them in the
 * edit's own frame would hold back the frame that shows the edit on the canvas.
 */
const DeferredHistory = memo(function DeferredHistory({ history, onRevert }: { history: History; onRevert(index: number): void }) {
  const shown = useAfterPaint(history);
  return useMemo(() => <HistoryPanel history={shown} onRevert={onRevert} />, [shown, onRevert]);
});

/**
 * The version and whether edits are saved, a frame after the canvas too (the header is then not painted
 * again in an edit's frame); "unsaved" while a field holds typed text not sent yet (`panels/drafts.ts`).
 */
const SaveState = memo(function SaveState(props: { version: number; pending: number }) {
  const version = useAfterPaint(props.version);
  const pending = useAfterPaint(props.pending);
  const label = saveLabel(pending, useUnsentDrafts());
  return (
    <>
      <span className="pill">version {version}</span>
      <span className={`pill ${label.warn ? 'pill-warn' : ''}`}>{label.text}</span>
    </>
  );
});

/** The collaborative editor of one loaded workflow. */
function Editor({ workflowId, name, color, readOnly }: { workflowId: string; name: string; color: string; readOnly: boolean }) {
  const toast = useToast();
  const confirm = useConfirm();
  const blocks = useQuery({ queryKey: ['blocks'], queryFn: api.blocks, staleTime: Infinity });
  const { snapshot, live, edit: write, dismissMessage } = useWorkflowSession(workflowId, blocks.data);
  // A reader's edits (a shortcut, a paste) are not sent: they would only be refused.
  const refuse = useCallback(() => toast.error(READ_ONLY_MESSAGE), [toast]);
  const edit: (commands: Command[]) => void = readOnly ? refuse : write;
  const flow = useReactFlow<BlockNode>();
  const store = useStoreApi<BlockNode>();
  const [canvasNodes] = useState(() => new CanvasNodes());
  // Where the handles are of measured nodes React Flow was given and then not (`keepHandles`).
  const letGo = useRef(new Map<string, NodeHandle[]>());
  const handled = useRef(new WeakMap<BlockNode, BlockNode>());
  const pane = useRef<HTMLDivElement>(null);
  const sidePanel = useRef<HTMLElement>(null);
  const layout = useLayout();
  const [dropTarget, setDropTarget] = useState<string | null>(null);
  const clipboard = useRef<Clip | null>(null);
  const panelBeforeDrag = useRef<string | undefined>(undefined);
  const runs = useRun(workflowId);
  const [asking, setAsking] = useState(false);
  const [deploying, setDeploying] = useState(false);
  const statuses = useMemo(() => (runs.run ? blockStatuses(runs.run) : null), [runs.run]);
  const catalogue = useMemo(() => new Map(blocks.data?.map((b) => [b.type, b])), [blocks.data]);
  const state = snapshot?.state;
  const stateRef = useRef(state);
  stateRef.current = state;
  /** The state as it is now, for the block panel (which then renders again only when its own block changes). */
  const currentState = useStable(() => stateRef.current ?? initialState());

  const describe = useMemo(
    () => (type: string) => {
      const definition = catalogue.get(type);
      return definition && { name: definition.name, color: definition.bgColor, icon: definition.icon };
    },
    [catalogue],
  );
  // The nodes and edges drawn follow the state while the editor renders (`drawnFor`: an event maps
  // only the blocks it changed), so an event costs one render of the editor and its tree, not two.
  // What only this canvas changes (selection, a drag, sizes React Flow measured) goes through
  // `setNodes` and `setEdges`, which render again.
  const drawnRef = useRef(NOTHING_DRAWN);
  if (state) drawnRef.current = drawnFor(drawnRef.current, state, describe, LARGE_CANVAS);
  const { nodes, edges, large } = drawnRef.current;
  const [, drew] = useReducer((n: number) => n + 1, 0);
  const redraw = useCallback(<K extends 'nodes' | 'edges'>(key: K, change: (items: Drawn[K]) => Drawn[K]) => {
    const drawn = drawnRef.current;
    const next = change(drawn[key]);
    if (next === drawn[key]) return;
    drawnRef.current = { ...drawn, [key]: next };
    drew();
  }, []);
  const setNodes = useCallback((change: (nodes: BlockNode[]) => BlockNode[]) => redraw('nodes', change), [redraw]);
  const setEdges = useCallback((change: (edges: Edge[]) => Edge[]) => redraw('edges', change), [redraw]);
  const stateBlocks = state?.blocks;
  const nodesRef = useRef(nodes);
  nodesRef.current = nodes;
  // A large canvas is drawn in part (the blocks in view), and fitting it never zooms out so far that all of them are in view.
  const fitOptions = useMemo(() => (large ? { maxZoom: 1, minZoom: 0.5 } : { maxZoom: 1 }), [large]);
  /** Fits a rectangle of the canvas into the view, within `options`' zoom limits (React Flow's padding). */
  const fitRect = (rect: Rect, options: { minZoom?: number; maxZoom?: number; duration?: number }) => {
    const { width, height, minZoom, maxZoom } = store.getState();
    if (width === 0 || height === 0) return;
    void flow.setViewport(getViewportForBounds(rect, width, height, options.minZoom ?? minZoom, options.maxZoom ?? maxZoom, 0.1), { duration: options.duration });
  };
  /** Fits the whole workflow: on a large canvas from every node, as React Flow's fitView sees only the nodes it was given. */
  const fitAll = (duration: number) => {
    const bounds = large ? boundsOf(boxesOf(nodesRef.current)) : undefined;
    if (bounds) fitRect(bounds, { ...fitOptions, duration });
    else void flow.fitView({ ...fitOptions, duration });
  };

  // On a large canvas React Flow is given only the blocks and edges near the view (`cull`): the view
  // and half a view around it, made again when the view comes near its edge or zooms in. Until its
  // first fit (which fits the blocks it has) it is given all of them.
  const [near, setNear] = useState<Rect | null>(null);
  useEffect(() => {
    if (!large) {
      setNear(null);
      return;
    }
    let current: Rect | null = null;
    const check = (s: ReactFlowState<BlockNode>) => {
      if (s.fitViewQueued || s.width === 0 || s.height === 0) return;
      const view = viewOf(s.transform, s.width, s.height);
      if (current && windowServes(current, view)) return;
      current = windowAround(view);
      setNear(current);
    };
    check(store.getState());
    return store.subscribe(check);
  }, [store, large]);
  // The minimap shows every node, not only those React Flow has.
  useLayoutEffect(() => canvasNodes.set(nodes), [canvasNodes, nodes]);

  // Typed text not sent yet goes when the page is hidden or left; leaving asks first only if something would still be lost.
  useEffect(() => guardDrafts(), []);

  // Refused edits and lost connections show as toasts; a state that did not load (the variables come
  // with it) in spec 000 §8's words for the variables, its own failure staying on the canvas.
  const message = snapshot?.message;
  const loadError = snapshot?.status === 'failed' ? snapshot.loadError : undefined;
  useEffect(() => {
    if (loadError !== undefined) toast.error(unloadedMessage(loadError));
    else if (message) {
      toast.error(message);
      dismissMessage();
    }
  }, [message, loadError, toast, dismissMessage]);

  const onNodesChange = useCallback((changes: NodeChange<BlockNode>[]) => {
    // A node measured again has its handles where React Flow found them now.
    for (const c of changes) if (c.type === 'dimensions') letGo.current.delete(c.id);
    setNodes((ns) => applyMeasured(changes, ns));
  }, []);
  const onEdgesChange = useCallback((changes: EdgeChange[]) => setEdges((es) => applyEdgeChanges(changes.filter((c) => c.type !== 'remove'), es)), []);

  /** The container a dragged node's centre is over (not itself or inside it); none for a block that may not nest (a trigger, the starter). */
  const containerUnder = useCallback((node: BlockNode) => {
    const s = stateRef.current;
    if (!s) return undefined;
    const type = s.blocks[node.id]?.type;
    if (type !== undefined && !mayNest(type, catalogue.get(type)?.category)) return undefined;
    const internal = flow.getInternalNode(node.id);
    const at = internal?.internals.positionAbsolute ?? node.position;
    const w = node.measured?.width ?? 240;
    const h = node.measured?.height ?? 60;
    return containerAt(s, { x: at.x + w / 2, y: at.y + h / 2 }, node.id);
  }, [flow, catalogue]);

  const onNodeDrag: OnNodeDrag<BlockNode> = useCallback(
    (_e, node, dragged) => {
      const target = dragged.length === 1 ? (containerUnder(node)?.id ?? null) : null;
      setDropTarget((t) => (t === target ? t : target));
    },
    [containerUnder],
  );

  // A drag selects the pressed block as it starts (before any node moves); the drag lasts until the
  // button is let go (React Flow does not call onNodeDragStop for a drag it gave up).
  const [dragStarted, setDragStarted] = useState(false);
  const onNodeDragStart: OnNodeDrag<BlockNode> = useStable(() => {
    setDragStarted(true);
    window.addEventListener('pointerup', () => setDragStarted(false), { once: true, capture: true });
  });
  const onNodeDragStop: OnNodeDrag<BlockNode> = useStable((_event, _node, dragged) => {
    setDragStarted(false);
    setDropTarget(null);
    if (!state) return;
    const moving = new Set(dragged.map((n) => n.id));
    const commands: Command[] = [];
    for (const n of dragged) {
      const block = state.blocks[n.id];
      if (!block) continue;
      // A block whose container moves with it stays where it is in the container.
      if (block.data.parentId !== undefined && moving.has(block.data.parentId)) {
        const position = { x: Math.round(n.position.x), y: Math.round(n.position.y) };
        if (position.x !== block.position.x || position.y !== block.position.y) commands.push({ type: 'moveBlock', id: n.id, position });
        continue;
      }
      const at = flow.getInternalNode(n.id)?.internals.positionAbsolute ?? n.position;
      const parent = dragged.length === 1 ? (containerUnder(n)?.id ?? null) : (block.data.parentId ?? null);
      const place = placeCommands(state, n.id, at, parent);
      const move = place[place.length - 1];
      const unchanged = place.length === 1 && move?.type === 'moveBlock' && move.position.x === block.position.x && move.position.y === block.position.y;
      if (!unchanged) commands.push(...place);
    }
    if (commands.length > 0) edit(commands);
  });

  const onConnect = useStable((c: Connection) => {
    if (!state) return;
    const problem = connectionProblem(state, c);
    if (problem) {
      toast.error(`Cannot connect: ${problem}`);
      return;
    }
    edit([{ type: 'addEdge', id: newId(), ...edgeFor(state, c) }]);
  });

  const remove = (nodeIds: string[], edgeIds: string[]) => {
    const gone = new Set(nodeIds);
    // Every selected block in ONE removeBlock, and the selected edges between blocks that stay, in one
    // edit (one request, one undo step); a block inside a selected container goes with it.
    const blocks = nodeIds.filter((id) => state?.blocks[id] && !(state.blocks[id]?.data.parentId && gone.has(state.blocks[id]?.data.parentId ?? '')));
    const removeBlocks: Command[] = blocks.length > 1 ? [{ type: 'removeBlock', ids: blocks }] : blocks.map((id) => ({ type: 'removeBlock', id }));
    const commands: Command[] = [
      ...removeBlocks,
      ...edgeIds.filter((id) => state?.edges.some((e) => e.id === id && !gone.has(e.source) && !gone.has(e.target))).map((id) => ({ type: 'removeEdge' as const, id })),
    ];
    if (commands.length > 0) edit(commands);
  };
  const onDelete: OnDelete<BlockNode> = useStable(({ nodes: gone, edges: cut }) => remove(gone.map((n) => n.id), cut.map((e) => e.id)));

  const viewCenter = (): Position => {
    const rect = pane.current?.getBoundingClientRect();
    return rect ? flow.screenToFlowPosition({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 }) : { x: 0, y: 0 };
  };

  const addAt = (blockType: string, point: Position, exact: boolean) => {
    if (!state) return;
    const container = CONTAINER_DATA[blockType];
    const size = container ? { width: CONTAINER_SIZE.width, height: CONTAINER_SIZE.height } : undefined;
    // A drop puts the block's top near the pointer, off any block it would cover — into the container
    // under it, not left of or above its inset corner (dropPlacement); a click puts it right of the
    // selected (or right-most) block on its row, further right or down when that is covered — into the
    // container of a selected block inside one, or into a selected container (clickPlacement).
    const height = size?.height ?? FOOTPRINT.height;
    const selected = drawnRef.current.nodes.filter((n) => n.selected).map((n) => n.id);
    // A trigger or the starter never goes into a loop or parallel, dropped or clicked (mayNest).
    const nests = mayNest(blockType, catalogue.get(blockType)?.category);
    const { at: spot, parentId: parent } = exact ? dropPlacement(state, point, size, nests) : clickPlacement(state, selected, point, size, nests);
    const id = newId();
    const base = parent ? absolutePosition(state, parent) : { x: 0, y: 0 };
    edit([
      // A container grows to hold the block (and the containers around it), before the block is added:
      // one edit (one request, so one undo step): one Undo takes the block away and the containers back to their size.
      ...growCommands(state, parent, { ...spot, width: size?.width ?? FOOTPRINT.width, height }),
      {
        type: 'addBlock',
        id,
        blockType,
        position: { x: spot.x - base.x, y: spot.y - base.y },
        ...(parent ? { parentId: parent } : {}),
        ...(container ? { data: container } : {}),
      },
    ]);
    setNodes((ns) => ns.map((n) => (n.selected ? { ...n, selected: false } : n)));
    if (!exact) reveal({ ...spot, width: size?.width ?? FOOTPRINT.width, height: size?.height ?? FOOTPRINT.height });
  };
  /** Pans (keeping the zoom) so a rectangle of the canvas is in view, when it is not. */
  const reveal = (rect: { x: number; y: number; width: number; height: number }) => {
    const box = pane.current?.getBoundingClientRect();
    if (!box) return;
    const topLeft = flow.screenToFlowPosition({ x: box.left, y: box.top });
    const bottomRight = flow.screenToFlowPosition({ x: box.right, y: box.bottom });
    const inView = rect.x >= topLeft.x && rect.y >= topLeft.y && rect.x + rect.width <= bottomRight.x && rect.y + rect.height <= bottomRight.y;
    if (!inView) void flow.setCenter(rect.x + rect.width / 2, rect.y + rect.height / 2, { zoom: flow.getZoom(), duration: 200 });
  };
  const add = useStable((blockType: string) => addAt(blockType, viewCenter(), false));

  const onDragOver = (e: DragEvent) => {
    if (![...e.dataTransfer.types].includes(BLOCK_DRAG_TYPE)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  };
  const onDrop = (e: DragEvent) => {
    const type = e.dataTransfer.getData(BLOCK_DRAG_TYPE);
    if (!type) return;
    e.preventDefault();
    addAt(type, flow.screenToFlowPosition({ x: e.clientX, y: e.clientY }), true);
  };

  // The selected blocks, and whether React Flow is dragging some (one pass over the nodes).
  const { selectedIds, dragging: moving } = useMemo(() => {
    const ids: string[] = [];
    let moving = false;
    for (const n of nodes) {
      if (n.selected) ids.push(n.id);
      if (n.dragging) moving = true;
    }
    return { selectedIds: ids, dragging: moving };
  }, [nodes]);
  const selectedEdgeIds = useMemo(() => edges.filter((e) => e.selected).map((e) => e.id), [edges]);

  const copy = () => {
    if (!state) return;
    const clip = copyBlocks(state, selectedIds);
    if (!clip) return;
    clipboard.current = clip;
    storeClip(clip);
    toast.show(`Copied ${clip.blocks.length} block${clip.blocks.length === 1 ? '' : 's'}`);
  };
  const paste = (copied: Clip | null = loadClip() ?? clipboard.current) => {
    if (!copied || copied.blocks.length === 0 || !state) return;
    const { clip: flat, lifted } = withTriggersAtTopLevel(copied, (type) => !mayNest(type, catalogue.get(type)?.category));
    const { clip, skipped } = withoutSecondStarter(flat, state);
    if (clip.blocks.some((b) => lifted.includes(b.id))) toast.show('Trigger blocks were pasted outside their loop or parallel: a trigger cannot be inside one');
    if (skipped > 0) toast.show('The starter was not pasted: a workflow has one starter');
    if (clip.blocks.length === 0) return;
    // Beside what was copied (or where it was, in another workflow), on no block: a second paste goes beside the first.
    const { commands, ids } = pasteCommands(clip, newId, pasteOffset(clip, state));
    edit(commands);
    const chosen = new Set(ids);
    // Select what was pasted once it is drawn, so it can be moved at once.
    window.setTimeout(() => setNodes((ns) => ns.map((n) => ({ ...n, selected: chosen.has(n.id) }))), 0);
  };
  const duplicate = () => {
    if (!state || selectedIds.length === 0) return;
    if (selectedIds.length === 1 && selectedIds[0] && state.blocks[selectedIds[0]]?.type !== 'starter') edit([{ type: 'duplicateBlock', id: selectedIds[0], newId: newId() }]);
    else paste(copyBlocks(state, selectedIds));
  };
  const selectAll = () => setNodes((ns) => ns.map((n) => (n.selected ? n : { ...n, selected: true })));

  /** Selects one block, shows the side panel with its form (closed, it opens for now) and brings the block into view (from the console or a deploy problem). */
  const showBlock = useStable((id: string) => {
    showPanelForNow();
    setNodes((ns) => ns.map((n) => (n.selected === (n.id === id) ? n : { ...n, selected: n.id === id })));
    const placed = large ? boxesOf(nodesRef.current) : undefined;
    const i = placed?.index.get(id);
    if (placed && i !== undefined) fitRect({ x: placed.boxes[i * 4] ?? 0, y: placed.boxes[i * 4 + 1] ?? 0, width: placed.boxes[i * 4 + 2] ?? 0, height: placed.boxes[i * 4 + 3] ?? 0 }, { maxZoom: 1, duration: 250 });
    else void flow.fitView({ nodes: [{ id }], maxZoom: 1, duration: 250 });
  });
  // A side panel shown for now by a selection closes again once nothing is selected, and when the canvas goes.
  const nothingSelected = selectedIds.length === 0;
  useEffect(() => {
    if (nothingSelected) endPanelShowing();
  }, [nothingSelected]);
  useEffect(() => endPanelShowing, []);
  // Worked out again only when the starter changes, not on every edit of another block.
  const starter = useStarter(stateBlocks);
  // Run asks for the input a run from the starter's mode takes: the input format's fields when it runs manually
  // (the only mode showing them, as the gateway checks), a chat message in chat mode, nothing otherwise.
  const startMode = starter?.subBlocks.startWorkflow?.value;
  const chatStart = startMode === 'chat';
  const starterFields = useMemo(() => (startMode === undefined || startMode === null || startMode === '' || startMode === 'manual' ? inputFields(starter?.subBlocks.inputFormat?.value) : []), [starter, startMode]);
  const running = runs.run?.status === 'running' || runs.run?.status === 'starting';
  // Which model blocks stream their tokens (the run's selectedOutputs): all but those turned off.
  const streamableRef = useRef<readonly StreamableBlock[]>([]);
  const streamable = streamableBlocks(stateBlocks, streamableRef.current);
  streamableRef.current = streamable;
  const [streamOff, setStreamOff] = useState<ReadonlySet<string>>(() => new Set());
  const toggleStreamed = useStable((id: string) =>
    setStreamOff((now) => {
      const next = new Set(now);
      if (!next.delete(id)) next.add(id);
      return next;
    }),
  );
  const startRun = (input: Record<string, unknown>) => {
    const chosen = selectedOutputs(streamable, streamOff);
    void runs.start(chosen ? { ...input, selectedOutputs: chosen } : input);
  };
  const runNow = () => {
    if (running) return;
    if (starterFields.length > 0 || chatStart) setAsking(true);
    else startRun({});
  };
  // "Run from <block>" streams the same blocks the Run button's choice does.
  const rerunFrom = useStable((blockId: string) => {
    const executionId = runs.run?.executionId;
    if (executionId) void runs.rerunFrom(executionId, blockId, selectedOutputs(streamable, streamOff));
  });
  const cancelRun = useStable(() => {
    runs.cancel().catch((error: unknown) => toast.error(`Could not cancel the run: ${error instanceof Error ? error.message : String(error)}`));
  });
  const openRun = useStable((id: string) => void runs.open(id));
  const revert = useStable((index: number) => edit([{ type: 'revertToHistory', index }]));

  const autoLayout = async () => {
    if (!state) return;
    try {
      const { elkLayout } = await import('@weft/workflow/layout');
      const placed = elkLayout({ blocks: state.blocks, edges: state.edges });
      const commands: Command[] = [];
      for (const [id, p] of Object.entries(placed)) {
        const block = state.blocks[id];
        if (!block) continue;
        if (p.width !== undefined && p.height !== undefined && (block.data.width !== p.width || block.data.height !== p.height)) commands.push({ type: 'resizeBlock', id, width: p.width, height: p.height });
        if (block.position.x !== p.position.x || block.position.y !== p.position.y) commands.push({ type: 'moveBlock', id, position: p.position });
      }
      if (commands.length > 0) edit(commands);
      window.setTimeout(() => fitAll(300), 50);
    } catch (error) {
      toast.error(`Auto layout failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const canUndo = (state?.history.past.length ?? 0) > 0;
  const canRedo = (state?.history.future.length ?? 0) > 0;
  const actions = useRef({ copy, paste, duplicate, selectAll, canUndo, canRedo, runNow });
  actions.current = { copy, paste, duplicate, selectAll, canUndo, canRedo, runNow };

  // Shortcuts: undo, redo, copy, paste, duplicate, select all, run (Ctrl+Enter), the block palette (Ctrl+B);
  // delete is React Flow's Backspace/Delete; the sidebar's Ctrl+\ is the app's (App.tsx). Only on the canvas or
  // the body, with no text selected elsewhere: the console's, panels' and copilot's copy and select all stay native.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || !isCanvasShortcutAt(e.target, window.getSelection())) return;
      const key = e.key.toLowerCase();
      const a = actions.current;
      if (key === 'z' && !e.shiftKey) {
        if (a.canUndo) edit([{ type: 'undo' }]);
      }
      else if ((key === 'z' && e.shiftKey) || key === 'y') {
        if (a.canRedo) edit([{ type: 'redo' }]);
      }
      else if (key === 'c') a.copy();
      else if (key === 'v') a.paste();
      else if (key === 'd') a.duplicate();
      else if (key === 'a') a.selectAll();
      else if (key === 'enter') a.runNow();
      else if (key === 'b' && !readOnly) togglePalette();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [edit, readOnly]);

  // The path a run took, from its block logs (`runPath`): an error edge out of a failed block counts.
  const runEntries = runs.run?.entries;
  const shownEdges = useMemo(() => {
    if (!runEntries) return edges;
    const path = runPath(edges, runEntries);
    return edges.map((e) => {
      const className = [e.className, path.has(e.id) ? 'run-path' : ''].filter(Boolean).join(' ') || undefined;
      return className === e.className ? e : { ...e, className };
    });
  }, [edges, runEntries]);

  // What React Flow is given: the same arrays while nothing it has changed (a new array is a change it adopts).
  const given = useRef<{ nodes: readonly BlockNode[]; edges: readonly Edge[] }>({ nodes: [], edges: [] });
  const culled = useRef<Culled<BlockNode, Edge> | undefined>(undefined);
  given.current = useMemo(() => {
    // A remote edit or a drag moving a block near the view changes one node given: no pass over every edge.
    const next = near ? (cullAgain(culled.current, nodes, shownEdges, near) ?? cull(nodes, shownEdges, near)) : { nodes, edges: shownEdges };
    culled.current = near ? { all: nodes, edges: shownEdges, window: near, given: next } : undefined;
    const before = given.current.nodes;
    if (next.nodes !== before) keepHandles(before, next.nodes, store.getState().nodeLookup, letGo.current);
    const withHandles = letGo.current.size === 0 ? next.nodes : next.nodes.map((n) => withKnownHandles(n, letGo.current, handled.current));
    return { nodes: sameOr(before, withHandles), edges: sameOr(given.current.edges, next.edges) };
  }, [nodes, shownEdges, near, store]);

  const context = useMemo(
    () => ({
      resize: (id: string, width: number, height: number, position: Position) => {
        const commands = stateRef.current ? resizeCommands(stateRef.current, id, width, height, position) : [];
        if (commands.length > 0) edit(commands);
      },
      dropTarget,
    }),
    [edit, dropTarget],
  );

  // Parts that an edit of the graph does not change keep their element, so React skips them.
  const runConsole = useMemo(
    () => <RunConsole workflowId={workflowId} run={runs.run} onCancel={cancelRun} onOpen={openRun} onRerunFrom={rerunFrom} onSelectBlock={showBlock} />,
    [workflowId, runs.run, cancelRun, openRun, rerunFrom, showBlock],
  );
  const variables = state?.variables;
  const variablesPanel = useMemo(() => variables && <VariablesPanel variables={variables} edit={edit} />, [variables, edit]);
  const copilotPanel = useMemo(() => <CopilotPanel workflowId={workflowId} />, [workflowId]);

  // The toolbar keeps its element while what it shows is the same, so an edit does not render its buttons again.
  const tool = useStable((name: 'undo' | 'redo' | 'copy' | 'paste' | 'duplicate' | 'delete' | 'layout' | 'clear' | 'fit' | 'deploy' | 'run') => {
    if (name === 'undo') edit([{ type: 'undo' }]);
    else if (name === 'redo') edit([{ type: 'redo' }]);
    else if (name === 'copy') copy();
    else if (name === 'paste') paste();
    else if (name === 'duplicate') duplicate();
    else if (name === 'delete') remove(selectedIds, selectedEdgeIds);
    else if (name === 'layout') void autoLayout();
    // Clearing takes every block and connection away (spec 000 §2/§4 clear workflow): asked first, one undoable edit.
    else if (name === 'clear')
      void confirm({ title: 'Clear the workflow?', message: 'Every block and connection is removed. Undo (Ctrl+Z) brings them back.', confirmLabel: 'Clear workflow', icon: 'eraser' }).then(
        (yes) => yes && edit([{ type: 'clearWorkflow' }]),
      );
    else if (name === 'fit') fitAll(200);
    else if (name === 'deploy') setDeploying(true);
    else runNow();
  });
  // The deploy dialog's file did not load: say so and close it (the 'Weft was updated' toast offers the reload).
  const deployFailed = useStable((message: string) => {
    setDeploying(false);
    toast.error(message);
  });
  const selectedCount = selectedIds.length;
  const blockCount = Object.keys(state?.blocks ?? {}).length;
  const deletable = selectedIds.length + selectedEdgeIds.length;
  const toolbar = useMemo(
    () => (
      <div className="toolbar" role="toolbar" aria-label="Editing tools">
        {!readOnly && (
          <>
            <ToolButton label="Undo" icon="undo" shortcut="Ctrl+Z" disabled={!canUndo} onClick={() => tool('undo')} />
            <ToolButton label="Redo" icon="redo" shortcut="Ctrl+Shift+Z" disabled={!canRedo} onClick={() => tool('redo')} />
            <span className="tool-sep" />
          </>
        )}
        <ToolButton label="Copy" icon="copy" shortcut="Ctrl+C" disabled={selectedCount === 0} onClick={() => tool('copy')} />
        {!readOnly && (
          <>
            <ToolButton label="Paste" icon="paste" shortcut="Ctrl+V" onClick={() => tool('paste')} />
            <ToolButton label="Duplicate selected" icon="duplicate" shortcut="Ctrl+D" disabled={selectedCount === 0} onClick={() => tool('duplicate')} />
            <ToolButton label="Delete selected" icon="trash" shortcut="Delete" disabled={deletable === 0} onClick={() => tool('delete')} />
            <span className="tool-sep" />
            <ToolButton label="Auto layout" icon="layout" onClick={() => tool('layout')} />
            <ToolButton label="Clear workflow" icon="eraser" disabled={blockCount === 0} onClick={() => tool('clear')} />
          </>
        )}
        <ToolButton label="Fit view" icon="fit" onClick={() => tool('fit')} />
        {!readOnly && (
          <>
            <span className="tool-sep" />
            <div className="canvas-actions">
              <button type="button" className="btn btn-sm" onClick={() => tool('deploy')}>
                <Icon name="rocket" size={14} /> Deploy
              </button>
              <div className="split-run">
                <button type="button" className="btn btn-sm btn-run" title="Run (Ctrl+Enter)" disabled={running} onClick={() => tool('run')}>
                  <Icon name="play" size={12} /> {running ? 'Running…' : 'Run'}
                </button>
                <RunStreamChoice streamable={streamable} off={streamOff} onToggle={toggleStreamed} />
              </div>
            </div>
          </>
        )}
      </div>
    ),
    [readOnly, canUndo, canRedo, selectedCount, deletable, blockCount, running, tool, streamable, streamOff, toggleStreamed],
  );

  if (!snapshot || snapshot.status === 'loading') return <p className="empty">Loading…</p>;
  if (snapshot.status === 'failed') return <p className="empty error">{snapshot.message}</p>;
  const dragging = dragStarted || moving;
  const selectedOne = selectedIds.length === 1 ? snapshot.state.blocks[selectedIds[0] ?? ''] : undefined;
  // Pressing a block and dragging it selects it; its panel (with a code editor to lay out) opens when
  // the drag ends, not in the drag's frames. Until then the panel shown before the drag stays.
  if (!dragging) panelBeforeDrag.current = selectedOne?.id;
  const only = dragging ? snapshot.state.blocks[panelBeforeDrag.current ?? ''] : selectedOne;
  return (
    <div className="canvas" data-testid="canvas">
      <header className="canvas-header" {...CANVAS_KEYS}>
        <div className="canvas-title">
          <span className="swatch lg" style={{ background: color }} />
          <strong>{name}</strong>
          <SaveState version={snapshot.version} pending={snapshot.pending} />
          <span className={`pill ${live ? 'pill-live' : 'pill-off'}`}>{live ? 'live' : 'offline'}</span>
          {readOnly && (
            <span className="pill pill-off" title={READ_ONLY_MESSAGE}>
              read only
            </span>
          )}
        </div>
        <div className="canvas-header-end">
          {toolbar}
          <span className="tool-sep" />
          <PaneToggle label={layout.panelOpen ? 'Hide side panel' : 'Show side panel'} side="right" expanded={layout.panelOpen} onClick={togglePanel} />
        </div>
      </header>
      <div className="editor-body">
        {!readOnly && <Palette definitions={blocks.data ?? []} onAdd={add} open={layout.paletteOpen} width={layout.paletteWidth} onToggle={togglePalette} />}
        <div className="flow-column">
        <div className="flow" ref={pane} onDragOver={onDragOver} onDrop={onDrop} onPointerDownCapture={dropTextSelection} {...CANVAS_KEYS}>
          <RunStatusContext.Provider value={statuses}>
          <CanvasContext.Provider value={context}>
          <CanvasNodesContext.Provider value={canvasNodes}>
            <ReactFlow
              nodes={given.current.nodes as BlockNode[]}
              edges={given.current.edges as Edge[]}
              nodeTypes={nodeTypes}
              onNodesChange={onNodesChange}
              onNodeClick={showPanelOnClick}
              onEdgesChange={onEdgesChange}
              onNodeDragStart={onNodeDragStart}
              onNodeDrag={onNodeDrag}
              onNodeDragStop={onNodeDragStop}
              onConnect={onConnect}
              onDelete={onDelete}
              deleteKeyCode={readOnly ? null : DELETE_KEYS}
              nodesDraggable={!readOnly}
              nodesConnectable={!readOnly}
              multiSelectionKeyCode={MULTI_SELECT_KEYS}
              selectionKeyCode="Shift"
              onlyRenderVisibleElements={large}
              minZoom={0.05}
              fitView
              fitViewOptions={fitOptions}
              proOptions={PRO_OPTIONS}
              defaultEdgeOptions={EDGE_OPTIONS}
            >
              {FLOW_CHROME}
            </ReactFlow>
          </CanvasNodesContext.Provider>
          </CanvasContext.Provider>
          </RunStatusContext.Provider>
        </div>
        {runConsole}
        </div>
        {layout.panelOpen && <PanelResizer width={layout.panelWidth} panel={sidePanel} />}
        {/* Closed, the side panel stays mounted (hidden), so the copilot's draft and the open forms are kept. */}
        <aside className="panels" aria-label="Side panel" tabIndex={-1} ref={sidePanel} hidden={!layout.panelOpen} style={{ width: layout.panelWidth }}>
          {only && <SelectedBlockPanel key={only.id} block={only} currentState={currentState} definition={catalogue.get(only.type)} edit={edit} workflowId={workflowId} readOnly={readOnly} />}
          {!only && selectedIds.length > 1 && (
            <section className="panel" aria-label="Selection">
              <h2>{selectedIds.length} blocks selected</h2>
              <p className="muted">Drag to move them together; copy, duplicate or delete them from the toolbar or with the shortcuts.</p>
            </section>
          )}
          <DeferredHistory history={snapshot.state.history} onRevert={revert} />
          {variablesPanel && (
            <fieldset className="plain-fieldset" disabled={readOnly}>
              {variablesPanel}
            </fieldset>
          )}
          {!readOnly && copilotPanel}
        </aside>
      </div>
      {asking && (
        <RunInputDialog
          fields={starterFields}
          chat={chatStart}
          onClose={() => setAsking(false)}
          onRun={(input) => {
            setAsking(false);
            startRun(input);
          }}
        />
      )}
      {deploying && (
        <LoadBoundary fallback={() => null} onError={deployFailed}>
          <Suspense fallback={<div className="backdrop" />}>
            <DeployDialog workflowId={workflowId} state={snapshot.state} onClose={() => setDeploying(false)} onShowBlock={showBlock} />
          </Suspense>
        </LoadBoundary>
      )}
    </div>
  );
}

/** Why a workflow cannot be opened: 'Workflow {id} not found' (spec 000 §8) for a 404 or no entry, else the server's message. */
function workflowProblem(workflowId: string, error: Error | null, missing: boolean): string | null {
  if ((error instanceof ApiError && error.status === 404) || (!error && missing)) return `Workflow ${workflowId} not found`;
  return error ? error.message : null;
}

/** Draws one workflow's blocks and edges and lets the user edit them together with others. */
export function Canvas({ workflowId }: { workflowId: string; listed?: boolean }) {
  // The workflow's entry first: it waits for the editor to start a just-created workflow.
  const workflow = useQuery({ queryKey: ['workflow', workflowId], queryFn: () => api.workflow(workflowId), retry: (n, e) => !(e instanceof ApiError && e.status === 404) && n < 1 });
  const workspaces = useQuery({ queryKey: ['workspaces'], queryFn: api.workspaces });
  const toast = useToast();
  const problem = workflowProblem(workflowId, workflow.error, workflow.isSuccess && !workflow.data);
  // Spec 000 §8: 'Workflow {id} not found' (and any other failure to open it) is a toast too.
  useEffect(() => {
    if (problem) toast.error(problem);
  }, [problem, toast]);
  if (workflow.isLoading) return <p className="empty">Loading…</p>;
  if (problem || !workflow.data) return <p className="empty error">{problem}</p>;
  if (workspaces.isLoading) return <p className="empty">Loading…</p>;
  // A reader of the workspace sees the workflow and its runs; the server refuses their edits anyway.
  const readOnly = workspaces.data?.find((w) => w.id === workflow.data.workspaceId)?.permission === 'read';
  return (
    <ReactFlowProvider>
      <Editor key={workflowId} workflowId={workflowId} name={workflow.data.name} color={workflow.data.color} readOnly={readOnly} />
    </ReactFlowProvider>
  );
}
