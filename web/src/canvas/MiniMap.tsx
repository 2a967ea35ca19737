import { useEffect, useRef, type PointerEvent, type WheelEvent } from 'react';
import { Panel, useReactFlow, useStoreApi, type ReactFlowState } from '@xyflow/react';
import type { BlockNode } from './flow';

const SIZE = { width: 160, height: 110 };
const PAD = 8;
const FALLBACK_COLOR = '#94a3b8';

/** What the minimap draws: every block's box and colour, and the part of the canvas in view. */
interface Scene {
  boxes: Array<{ x: number; y: number; width: number; height: number; color: string }>;
  view: { x: number; y: number; width: number; height: number };
}

function sceneOf(state: ReactFlowState<BlockNode>): Scene {
  const [tx, ty, zoom] = state.transform;
  const view = { x: -tx / zoom, y: -ty / zoom, width: state.width / zoom, height: state.height / zoom };
  const boxes: Scene['boxes'] = [];
  for (const node of state.nodeLookup.values()) {
    if (node.hidden) continue;
    const { x, y } = node.internals.positionAbsolute;
    const width = node.measured.width ?? node.width ?? node.initialWidth ?? 0;
    const height = node.measured.height ?? node.height ?? node.initialHeight ?? 0;
    boxes.push({ x, y, width, height, color: node.type === 'container' ? 'transparent' : (node.data.color ?? FALLBACK_COLOR) });
  }
  return { boxes, view };
}

/** Scale and offset that fit every block and the view into the minimap. */
function fit(scene: Scene): { scale: number; x: number; y: number } {
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
 * The canvas overview, drawn on one `<canvas>` from one store subscription: React Flow's own minimap
 * draws an SVG element per block and subscribes each to the store, which on a 2,000-block canvas costs
 * more than the canvas itself on every change. Click or drag to move the view there; wheel to zoom.
 */
export function MiniMap() {
  const store = useStoreApi<BlockNode>();
  const flow = useReactFlow<BlockNode>();
  const canvas = useRef<HTMLCanvasElement>(null);
  const placed = useRef<{ scale: number; x: number; y: number }>({ scale: 1, x: 0, y: 0 });

  useEffect(() => {
    let frame = 0;
    const draw = () => {
      frame = 0;
      const element = canvas.current;
      const ctx = element?.getContext('2d');
      if (!element || !ctx) return;
      const ratio = window.devicePixelRatio || 1;
      if (element.width !== SIZE.width * ratio) {
        element.width = SIZE.width * ratio;
        element.height = SIZE.height * ratio;
      }
      const scene = sceneOf(store.getState());
      const at = fit(scene);
      placed.current = at;
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.clearRect(0, 0, SIZE.width, SIZE.height);
      ctx.fillStyle = 'rgba(240,242,245,0.7)';
      ctx.fillRect(0, 0, SIZE.width, SIZE.height);
      const v = scene.view;
      ctx.clearRect(at.x + v.x * at.scale, at.y + v.y * at.scale, v.width * at.scale, v.height * at.scale);
      for (const b of scene.boxes) {
        const rect = [at.x + b.x * at.scale, at.y + b.y * at.scale, Math.max(1, b.width * at.scale), Math.max(1, b.height * at.scale)] as const;
        if (b.color === 'transparent') {
          ctx.strokeStyle = FALLBACK_COLOR;
          ctx.strokeRect(...rect);
        } else {
          ctx.fillStyle = b.color;
          ctx.fillRect(...rect);
        }
      }
      ctx.strokeStyle = '#6f3dfa';
      ctx.lineWidth = 1;
      ctx.strokeRect(at.x + v.x * at.scale, at.y + v.y * at.scale, v.width * at.scale, v.height * at.scale);
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(draw);
    };
    schedule();
    // Any store change may move a block or the view (measurements change the lookup in place); one draw per frame.
    const unsubscribe = store.subscribe(schedule);
    return () => {
      unsubscribe();
      cancelAnimationFrame(frame);
    };
  }, [store]);

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

  return (
    <Panel position="bottom-right" className="react-flow__minimap weft-minimap">
      <canvas ref={canvas} role="img" aria-label="Minimap" style={{ width: SIZE.width, height: SIZE.height, display: 'block', cursor: 'pointer' }} onPointerDown={onPointerDown} onPointerMove={onPointerMove} onWheel={onWheel} />
    </Panel>
  );
}
