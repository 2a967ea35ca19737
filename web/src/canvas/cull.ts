import type { Edge, InternalNode, Node, NodeHandle } from '@xyflow/react';
import type { Rect } from './place';

/** A node's size when React Flow has not measured it and it has none of its own (a plain block's card). */
const UNMEASURED = { width: 240, height: 60 };

/**
 * Where every node is on the canvas, its containers' positions added up: `boxes` holds x, y, width,
 * height for the node at each index of `nodes`, and `index` finds a node's index by id. Parents come
 * before their children in the nodes (React Flow wants that too); a child whose parent is missing or
 * later counts from the origin.
 */
export interface Boxes {
  boxes: Float64Array;
  index: Map<string, number>;
}

/** The last index made, and the ids it was made for: an edit makes new nodes but seldom new ids. */
let lastIndex: { ids: string[]; index: Map<string, number> } = { ids: [], index: new Map() };

/** Each node's index by id; the earlier map when the ids are the same, in the same order (checked in one pass). */
export function nodeIndex(nodes: readonly Node[]): Map<string, number> {
  const { ids } = lastIndex;
  let same = ids.length === nodes.length;
  for (let i = 0; same && i < nodes.length; i++) same = ids[i] === (nodes[i] as Node).id;
  if (same) return lastIndex.index;
  const index = new Map<string, number>();
  const fresh: string[] = [];
  nodes.forEach((node, i) => {
    index.set(node.id, i);
    fresh.push(node.id);
  });
  lastIndex = { ids: fresh, index };
  return index;
}

export function boxesOf(nodes: readonly Node[]): Boxes {
  const boxes = new Float64Array(nodes.length * 4);
  const index = nodeIndex(nodes);
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as Node;
    let x = node.position.x;
    let y = node.position.y;
    const parent = node.parentId === undefined ? undefined : index.get(node.parentId);
    if (parent !== undefined && parent < i) {
      x += boxes[parent * 4] ?? 0;
      y += boxes[parent * 4 + 1] ?? 0;
    }
    boxes[i * 4] = x;
    boxes[i * 4 + 1] = y;
    boxes[i * 4 + 2] = node.measured?.width ?? node.width ?? UNMEASURED.width;
    boxes[i * 4 + 3] = node.measured?.height ?? node.height ?? UNMEASURED.height;
  }
  return { boxes, index };
}

/** The rectangle around every node, or undefined when there are none. */
export function boundsOf({ boxes }: Boxes): Rect | undefined {
  if (boxes.length === 0) return undefined;
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < boxes.length; i += 4) {
    const x = boxes[i] ?? 0;
    const y = boxes[i + 1] ?? 0;
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x + (boxes[i + 2] ?? 0));
    maxY = Math.max(maxY, y + (boxes[i + 3] ?? 0));
  }
  return { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}

/** The part of the canvas in view, from React Flow's transform ([x, y, zoom]) and the pane's size in pixels. */
export function viewOf(transform: readonly [number, number, number], width: number, height: number): Rect {
  const [tx, ty, zoom] = transform;
  return { x: -tx / zoom, y: -ty / zoom, width: width / zoom, height: height / zoom };
}

/** How much of the canvas around the view React Flow is given, in view sizes on each side. */
const MARGIN = 0.5;
/** How close (in view sizes) the view may come to the window's edge before a new window is made. */
const SLACK = 0.2;
/** How many view widths a window may span before zooming in makes a smaller one (a fresh window spans 1 + 2 × MARGIN). */
const WIDEST = 3;

/** The window for a view: the view and half a view on each side. */
export function windowAround(view: Rect): Rect {
  return { x: view.x - view.width * MARGIN, y: view.y - view.height * MARGIN, width: view.width * (1 + 2 * MARGIN), height: view.height * (1 + 2 * MARGIN) };
}

/**
 * Whether a window made earlier still serves `view`: the view is inside it with a fifth of a view to
 * spare on every side (so a pan gets a new window before an edge of the view reaches what was left
 * out), and zooming in has not made it needlessly large.
 */
export function windowServes(window: Rect, view: Rect): boolean {
  const dx = view.width * SLACK;
  const dy = view.height * SLACK;
  return (
    view.x - dx >= window.x &&
    view.y - dy >= window.y &&
    view.x + view.width + dx <= window.x + window.width &&
    view.y + view.height + dy <= window.y + window.height &&
    window.width <= view.width * WIDEST
  );
}

/** Why `cull` gives a node: it meets the window or is selected or dragged, or it is an end of an edge given (or a container). */
const NEAR = 1;
const AS_END = 2;

const meets = (boxes: Float64Array, i: number, w: Rect) =>
  (boxes[i * 4] ?? 0) < w.x + w.width && w.x < (boxes[i * 4] ?? 0) + (boxes[i * 4 + 2] ?? 0) && (boxes[i * 4 + 1] ?? 0) < w.y + w.height && w.y < (boxes[i * 4 + 1] ?? 0) + (boxes[i * 4 + 3] ?? 0);

/**
 * The nodes and edges of a large canvas React Flow is given: those that meet `window` (the view and
 * some canvas around it), so its work on every change (adopting the nodes, its visible-node and
 * visible-edge checks, hit tests, applying a drag) scales with what is near the view, not with the
 * whole workflow. Always given: selected and dragged nodes and selected edges (React Flow moves,
 * deletes and deselects only what it has), an edge whose span between its two blocks meets the
 * window, both ends of every edge given (React Flow draws an edge only between nodes it has), and
 * the containers of every node given. The nodes keep their order (containers before their
 * children); with everything given, the same arrays come back.
 */
export function cull<N extends Node, E extends Edge>(nodes: readonly N[], edges: readonly E[], window: Rect, placed: Boxes = boxesOf(nodes)): { nodes: readonly N[]; edges: readonly E[] } {
  const { boxes, index } = placed;
  const keep = new Uint8Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as N;
    if (node.selected || node.dragging || meets(boxes, i, window)) keep[i] = NEAR;
  }
  const shownEdges: E[] = [];
  for (const edge of edges) {
    const s = index.get(edge.source);
    const t = index.get(edge.target);
    if (s === undefined || t === undefined) continue;
    let shown = edge.selected === true || keep[s] === NEAR || keep[t] === NEAR;
    if (!shown) {
      // The rectangle spanning both blocks: a long edge crosses the view with both of its ends outside.
      const x = Math.min(boxes[s * 4] ?? 0, boxes[t * 4] ?? 0);
      const y = Math.min(boxes[s * 4 + 1] ?? 0, boxes[t * 4 + 1] ?? 0);
      const right = Math.max((boxes[s * 4] ?? 0) + (boxes[s * 4 + 2] ?? 0), (boxes[t * 4] ?? 0) + (boxes[t * 4 + 2] ?? 0));
      const bottom = Math.max((boxes[s * 4 + 1] ?? 0) + (boxes[s * 4 + 3] ?? 0), (boxes[t * 4 + 1] ?? 0) + (boxes[t * 4 + 3] ?? 0));
      shown = x < window.x + window.width && window.x < right && y < window.y + window.height && window.y < bottom;
    }
    if (!shown) continue;
    shownEdges.push(edge);
    // Given only as an edge's end: its own edges are not given for it (that would follow a chain of blocks to its end).
    if (keep[s] === 0) keep[s] = AS_END;
    if (keep[t] === 0) keep[t] = AS_END;
  }
  // Containers of what is given, walked up from the children (containers come first, so a pass from the end reaches every ancestor).
  for (let i = nodes.length - 1; i >= 0; i--) {
    const parentId = keep[i] ? (nodes[i] as N).parentId : undefined;
    const parent = parentId === undefined ? undefined : index.get(parentId);
    if (parent !== undefined && keep[parent] === 0) keep[parent] = AS_END;
  }
  const shownNodes = nodes.filter((_n, i) => keep[i] !== 0);
  return { nodes: shownNodes.length === nodes.length ? nodes : shownNodes, edges: shownEdges.length === edges.length ? edges : shownEdges };
}

/** `next` when its items differ from `prev`'s, else `prev` (React Flow takes a new array as a change to adopt). */
export function sameOr<T>(prev: readonly T[] | undefined, next: readonly T[]): readonly T[] {
  if (!prev || prev.length !== next.length) return next;
  for (let i = 0; i < next.length; i++) if (prev[i] !== next[i]) return next;
  return prev;
}

/**
 * Remembers where the handles are of the measured nodes React Flow had (`before`) and is no longer
 * given (`after`). React Flow draws an edge only when it knows both ends' handles: a plain block
 * carries estimated ones (`estimatedLayout`), but a measured block (rows, containers) given again
 * only as the far end of an edge, out of view and so not drawn, would leave its edges undrawn.
 */
export function keepHandles(before: readonly Node[], after: readonly Node[], lookup: ReadonlyMap<string, InternalNode>, into: Map<string, NodeHandle[]>): void {
  // Nodes keep their order: the same ids at the same places are the same nodes given.
  let same = before.length === after.length;
  for (let i = 0; same && i < after.length; i++) same = (before[i] as Node).id === (after[i] as Node).id;
  if (same) return;
  const kept = new Set<string>();
  for (const n of after) kept.add(n.id);
  for (const n of before) {
    if (kept.has(n.id) || n.handles !== undefined) continue;
    const bounds = lookup.get(n.id)?.internals.handleBounds;
    if (!bounds) continue;
    into.set(n.id, [...(bounds.source ?? []), ...(bounds.target ?? [])].map(({ nodeId: _node, ...handle }) => handle));
  }
}

/** The node with the handles `keepHandles` remembered for it (one object per node object, so React Flow sees no change). */
export function withKnownHandles<N extends Node>(node: N, known: ReadonlyMap<string, NodeHandle[]>, made: WeakMap<N, N>): N {
  if (node.handles !== undefined) return node;
  const handles = known.get(node.id);
  if (!handles) return node;
  let given = made.get(node);
  if (given?.handles !== handles) {
    given = { ...node, handles };
    made.set(node, given);
  }
  return given;
}

/** A `cull` made earlier: what it was given and what it gave. */
export interface Culled<N extends Node, E extends Edge> {
  all: readonly N[];
  edges: readonly E[];
  window: Rect;
  given: { nodes: readonly N[]; edges: readonly E[] };
}

/** How many changed nodes `cullAgain` looks at before it leaves the work to `cull`. */
const FEW = 16;

/**
 * `cull(nodes, edges, window)` worked out from an earlier cull, when it can be without a pass over
 * every edge: the window and the edges are the same, the nodes the same ids in the same order, and
 * each of the few nodes that changed is near both before and after (it meets the window, or is
 * selected or dragged, both times), is no container (its children would move too) and keeps its
 * container. Such a node and its edges are given both times and nothing else changes, so the nodes
 * given are the earlier ones with it replaced. This is a remote edit moving a block in view, or a
 * drag. Undefined when it cannot tell: call `cull`.
 */
export function cullAgain<N extends Node, E extends Edge>(earlier: Culled<N, E> | undefined, nodes: readonly N[], edges: readonly E[], window: Rect): { nodes: readonly N[]; edges: readonly E[] } | undefined {
  if (!earlier || earlier.window !== window || earlier.edges !== edges || earlier.all.length !== nodes.length) return undefined;
  if (earlier.all === nodes) return earlier.given;
  const changed: number[] = [];
  for (let i = 0; i < nodes.length; i++) {
    if (nodes[i] === earlier.all[i]) continue;
    if (changed.length === FEW || (nodes[i] as N).id !== (earlier.all[i] as N).id) return undefined;
    changed.push(i);
  }
  const index = nodeIndex(nodes);
  const near = (list: readonly N[], node: N) => {
    if (node.selected || node.dragging) return true;
    let x = node.position.x;
    let y = node.position.y;
    for (let p = node.parentId, guard = 0; p !== undefined && guard < 100; guard++) {
      const parent = list[index.get(p) ?? -1];
      if (!parent) break;
      x += parent.position.x;
      y += parent.position.y;
      p = parent.parentId;
    }
    const width = node.measured?.width ?? node.width ?? UNMEASURED.width;
    const height = node.measured?.height ?? node.height ?? UNMEASURED.height;
    return x < window.x + window.width && window.x < x + width && y < window.y + window.height && window.y < y + height;
  };
  const given = earlier.given.nodes.slice();
  for (const i of changed) {
    const before = earlier.all[i] as N;
    const after = nodes[i] as N;
    if (before.type === 'container' || after.type === 'container' || before.parentId !== after.parentId || !near(earlier.all, before) || !near(nodes, after)) return undefined;
    const at = given.indexOf(before);
    if (at < 0) return undefined;
    given[at] = after;
  }
  return { nodes: given, edges: earlier.given.edges };
}
