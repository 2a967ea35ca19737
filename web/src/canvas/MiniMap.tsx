import { createContext, useContext, useEffect, useRef, useState, type PointerEvent, type WheelEvent } from 'react';
import { Panel, useReactFlow, useStore, useStoreApi, type ReactFlowState } from '@xyflow/react';
import { Icon } from '../ui/icons';
import { boxesOf, viewOf } from './cull';
import type { BlockNode } from './flow';

const SIZE = { width: 160, height: 110 };
const PAD = 8;
const FALLBACK_COLOR = '#94a3b8';
/**
 * Below this canvas height (the run console open, even on a 1440×900 screen where the canvas keeps
 * about 590 px; a short window) the minimap folds into a button: open, it would cover a good part of
 * the blocks left in view. The button opens it again. A canvas with the console closed (a 768 px
 * laptop screen's too) stays over it.
 */
export const FOLD_BELOW_HEIGHT = 640;

/** Whether a canvas `height` px tall folds the minimap (0: not measured yet). */
export const foldsMiniMap = (height: number): boolean => height > 0 && height < FOLD_BELOW_HEIGHT;
/** The least time between two redraws for blocks that moved (the view moving redraws in its next frame). */
const BLOCKS_REDRAW_MS = 250;

/**
 * Every node of the canvas, as the editor has them: on a large canvas React Flow is given only those
 * near the view (`cull`), and the minimap shows them all. The editor sets them after each render that
 * changes them; the minimap listens.
 */
export class CanvasNodes {
  private nodes: readonly BlockNode[] = [];
  private readonly listeners = new Set<() => void>();
  get(): readonly BlockNode[] {
    return this.nodes;
  }
  set(nodes: readonly BlockNode[]): void {
    if (nodes === this.nodes) return;
    this.nodes = nodes;
    for (const listener of this.listeners) listener();
  }
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
export const CanvasNodesContext = createContext<CanvasNodes>(new CanvasNodes());

/** What the minimap draws: every block's box and colour, and the part of the canvas in view. */
export interface Scene {
  boxes: Array<{ x: number; y: number; width: number; height: number; color: string }>;
  view: { x: number; y: number; width: number; height: number };
}

export function sceneOf(nodes: readonly BlockNode[], view: Scene['view']): Scene {
  const { boxes: placed } = boxesOf(nodes);
  const boxes: Scene['boxes'] = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as BlockNode;
    if (node.hidden) continue;
    const color = node.type === 'container' ? 'transparent' : (node.data.color ?? FALLBACK_COLOR);
    boxes.push({ x: placed[i * 4] ?? 0, y: placed[i * 4 + 1] ?? 0, width: placed[i * 4 + 2] ?? 0, height: placed[i * 4 + 3] ?? 0, color });
  }
  return { boxes, view };
}

/** Scale and offset that fit every block and the view into the minimap. */
export function fit(scene: Scene): { scale: number; x: number; y: number } {
  let [minX, minY, maxX, maxY] = [scene.view.x, scene.view.y, scene.view.x + scene.view.width, scene.view.y + scene.view.height];
  for (const b of scene.boxes) {
    minX = Math.min(minX, b.x);
    minY = Math.min(minY, b.y);
    maxX = Math.max(maxX, b.x + b.width);
    maxY = Math.max(maxY, b.y + b.height);
  }
  const scale = Math.min((SIZE.width - 2 * PAD) / Math.max(1, maxX - minX), (SIZE.height - 2 * PAD) / Math.max(1, maxY - minY));
  return { scale, x: PAD - minX * scale + (SIZE.width - 2 * PAD - (maxX - minX) * scale) / 2, y: PAD - minY * scale + (SIZE.height - 2 * PAD - (maxY - minY) * scale) / 2 };
}

/**
 * What the minimap shows, in whole device pixels: each box's rectangle (x, y, width, height, at least
 * one pixel) and colour, then the view's. Two equal pictures draw the same pixels, so a change smaller
 * than a minimap pixel (a block moved a few points on a large canvas) draws nothing.
 */
export interface Picture {
  rects: Int32Array;
  colors: string[];
}

export function pictureOf(scene: Scene, at: { scale: number; x: number; y: number }, ratio: number): Picture {
  const rects = new Int32Array((scene.boxes.length + 1) * 4);
  const colors: string[] = [];
  const put = (i: number, x: number, y: number, width: number, height: number) => {
    const left = Math.round((at.x + x * at.scale) * ratio);
    const top = Math.round((at.y + y * at.scale) * ratio);
    rects[i * 4] = left;
    rects[i * 4 + 1] = top;
    rects[i * 4 + 2] = Math.max(1, Math.round((at.x + (x + width) * at.scale) * ratio) - left);
    rects[i * 4 + 3] = Math.max(1, Math.round((at.y + (y + height) * at.scale) * ratio) - top);
  };
  scene.boxes.forEach((b, i) => {
    put(i, b.x, b.y, b.width, b.height);
    colors.push(b.color);
  });
  const v = scene.view;
  put(scene.boxes.length, v.x, v.y, v.width, v.height);
  return { rects, colors };
}

export function samePicture(a: Picture | undefined, b: Picture): boolean {
  if (!a || a.rects.length !== b.rects.length) return false;
  for (let i = 0; i < a.rects.length; i++) if (a.rects[i] !== b.rects[i]) return false;
  for (let i = 0; i < a.colors.length; i++) if (a.colors[i] !== b.colors[i]) return false;
  return true;
}

/** Runs `fn` when the page is idle (within 200 ms); browsers without idle callbacks wait 50 ms instead. */
function whenIdle(fn: () => void): number {
  return typeof requestIdleCallback === 'function' ? requestIdleCallback(fn, { timeout: 200 }) : window.setTimeout(fn, 50);
}
function cancelIdle(handle: number): void {
  if (handle === 0) return;
  if (typeof cancelIdleCallback === 'function') cancelIdleCallback(handle);
  else window.clearTimeout(handle);
}

/**
 * The canvas overview, drawn on one `<canvas>` from one store subscription: React Flow's own minimap
 * draws an SVG element per block and subscribes each to the store, which on a 2,000-block canvas costs
 * more than the canvas itself on every change. Click or drag to move the view there; wheel to zoom.
 */
export function MiniMap() {
  const short = useStore(isShort);
  // The user's own choice (the fold and show buttons) wins over the canvas height until the page reloads.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const shown = chosen ?? !short;
  return (
    <Panel position="bottom-right" className={`weft-minimap${shown ? ' react-flow__minimap' : ' folded'}`}>
      {shown ? (
        <>
          <MiniMapCanvas />
          <button type="button" className="minimap-fold" aria-label="Hide minimap" title="Hide minimap" onClick={() => setChosen(false)}>
            <Icon name="x" size={12} />
          </button>
        </>
      ) : (
        <button type="button" className="icon-btn bordered minimap-show" aria-label="Show minimap" title="Show minimap" onClick={() => setChosen(true)}>
          <Icon name="map" size={16} />
        </button>
      )}
    </Panel>
  );
}

const isShort = (s: ReactFlowState) => foldsMiniMap(s.height);

function MiniMapCanvas() {
  const store = useStoreApi<BlockNode>();
  const nodes = useContext(CanvasNodesContext);
  const flow = useReactFlow<BlockNode>();
  const canvas = useRef<HTMLCanvasElement>(null);
  const placed = useRef<{ scale: number; x: number; y: number }>({ scale: 1, x: 0, y: 0 });

  useEffect(() => {
    let frame = 0;
    let shown: Picture | undefined;
    const draw = () => {
      const element = canvas.current;
      const ctx = element?.getContext('2d');
      if (!element || !ctx) return;
      const ratio = window.devicePixelRatio || 1;
      if (element.width !== SIZE.width * ratio) {
        element.width = SIZE.width * ratio;
        element.height = SIZE.height * ratio;
        shown = undefined;
      }
      const { transform, width, height } = store.getState();
      const scene = sceneOf(nodes.get(), viewOf(transform, width, height));
      const at = fit(scene);
      placed.current = at;
      const picture = pictureOf(scene, at, ratio);
      // Drawing 2,000 boxes costs the frame a few milliseconds (the canvas is rasterised when the page
      // paints); a store change the minimap cannot show (a remote edit moving one block) skips it.
      if (samePicture(shown, picture)) return;
      shown = picture;
      const { rects, colors } = picture;
      const n = colors.length;
      const [vx, vy, vw, vh] = [rects[n * 4] ?? 0, rects[n * 4 + 1] ?? 0, rects[n * 4 + 2] ?? 0, rects[n * 4 + 3] ?? 0];
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, element.width, element.height);
      ctx.fillStyle = 'rgba(240,242,245,0.7)';
      ctx.fillRect(0, 0, element.width, element.height);
      ctx.clearRect(vx, vy, vw, vh);
      ctx.lineWidth = ratio;
      for (let i = 0; i < n; i++) {
        const [x, y, w, h] = [rects[i * 4] ?? 0, rects[i * 4 + 1] ?? 0, rects[i * 4 + 2] ?? 0, rects[i * 4 + 3] ?? 0];
        const color = colors[i] ?? FALLBACK_COLOR;
        if (color === 'transparent') {
          ctx.strokeStyle = FALLBACK_COLOR;
          ctx.strokeRect(x + ratio / 2, y + ratio / 2, w - ratio, h - ratio);
        } else {
          ctx.fillStyle = color;
          ctx.fillRect(x, y, w, h);
        }
      }
      ctx.strokeStyle = '#6f3dfa';
      ctx.strokeRect(vx + ratio / 2, vy + ratio / 2, vw - ratio, vh - ratio);
    };
    // The view moved: draw in the next frame. Blocks moved (a drag, a remote edit): draw once the page
    // is idle, so the frame that shows the change on the canvas does not also work out the minimap,
    // and at most every BLOCKS_REDRAW_MS: a drag moves a block on every mouse move, and the page is
    // idle between them, so it would work out the whole minimap (every block) for each one.
    let later = 0;
    let waiting = 0;
    let drawnAt = -Infinity;
    const drawAndNote = () => {
      drawnAt = performance.now();
      draw();
    };
    const drawNow = () => {
      frame = 0;
      cancelIdle(later);
      window.clearTimeout(waiting);
      later = waiting = 0;
      drawAndNote();
    };
    const scheduleFrame = () => {
      if (frame === 0) frame = requestAnimationFrame(drawNow);
    };
    const scheduleIdle = () => {
      if (frame !== 0 || later !== 0 || waiting !== 0) return;
      const wait = drawnAt + BLOCKS_REDRAW_MS - performance.now();
      if (wait > 0) waiting = window.setTimeout(() => ((waiting = 0), scheduleIdle()), wait);
      else later = whenIdle(() => ((later = 0), drawAndNote()));
    };
    scheduleFrame();
    let last = store.getState();
    const unsubscribe = store.subscribe((state) => {
      const viewMoved = state.transform !== last.transform || state.width !== last.width || state.height !== last.height;
      last = state;
      if (viewMoved) scheduleFrame();
    });
    // The blocks (and their measured sizes) come from the editor's nodes.
    const unlisten = nodes.subscribe(scheduleIdle);
    return () => {
      unsubscribe();
      unlisten();
      cancelAnimationFrame(frame);
      cancelIdle(later);
      window.clearTimeout(waiting);
    };
  }, [store, nodes]);

  /** The canvas point under a pointer on the minimap. */
  const pointAt = (e: { clientX: number; clientY: number }) => {
    const box = canvas.current?.getBoundingClientRect();
    const at = placed.current;
    return box ? { x: (e.clientX - box.left - at.x) / at.scale, y: (e.clientY - box.top - at.y) / at.scale } : undefined;
  };
  const centreOn = (e: PointerEvent) => {
    const p = pointAt(e);
    if (p) void flow.setCenter(p.x, p.y, { zoom: flow.getZoom() });
  };
  const onPointerDown = (e: PointerEvent<HTMLCanvasElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    centreOn(e);
  };
  const onPointerMove = (e: PointerEvent<HTMLCanvasElement>) => {
    if (e.currentTarget.hasPointerCapture(e.pointerId)) centreOn(e);
  };
  const onWheel = (e: WheelEvent) => void (e.deltaY < 0 ? flow.zoomIn({ duration: 0 }) : flow.zoomOut({ duration: 0 }));

  return <canvas ref={canvas} role="img" aria-label="Minimap" style={{ width: SIZE.width, height: SIZE.height, display: 'block', cursor: 'pointer' }} onPointerDown={onPointerDown} onPointerMove={onPointerMove} onWheel={onWheel} />;
}
