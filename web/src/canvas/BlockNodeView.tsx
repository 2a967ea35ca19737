import { memo, useContext } from 'react';
import { Handle, NodeResizer, Position, type NodeProps } from '@xyflow/react';
import { BlockIcon } from '../ui/icons';
import { RunStatusContext } from '../run/RunStatusContext';
import { CanvasContext } from './CanvasContext';
import { sameLook, type BlockNode } from './flow';

/**
 * Whether a block's card draws the same: it shows its id, selection and look (`sameLook`). React Flow
 * also passes the node's position (and more) to its view, and a moved block gets new data (it holds
 * the block), so without this a moved block drew its card again on every mouse move of a drag and for
 * every remote move, although nothing on it changed.
 */
const sameCard = (a: NodeProps<BlockNode>, b: NodeProps<BlockNode>) => a.id === b.id && a.selected === b.selected && sameLook(a.data, b.data);

/** A block on the canvas: its icon, name and type, an input handle, and one output handle per way out. */
export const BlockNodeView = memo(function BlockNodeView({ id, data, selected }: NodeProps<BlockNode>) {
  const run = useContext(RunStatusContext)?.get(id);
  const horizontal = data.horizontal;
  const [into, out] = horizontal ? [Position.Left, Position.Right] : [Position.Top, Position.Bottom];
  const rows = data.handles.filter((h) => h.kind === 'condition' || h.kind === 'router');
  const plain = data.handles.filter((h) => h.kind === 'source');
  const error = data.handles.find((h) => h.kind === 'error');
  return (
    <div className={`node-card${selected ? ' is-selected' : ''}${run ? ` run-${run}` : ''}`} style={{ ['--accent' as string]: data.color ?? '#6b7280' }} data-run={run}>
      {run && <span className={`run-badge ${run}`}>{run}</span>}
      {data.hasTarget && <Handle type="target" position={into} className="handle-in" aria-label={`Connect into ${data.name}`} />}
      <div className="node-head">
        <BlockIcon icon={data.icon} color={data.color} name={data.typeName} size={26} />
        <div className="node-titles">
          <div className="block-name">{data.name}</div>
          <div className="block-type">{data.typeName}</div>
        </div>
      </div>
      {rows.length > 0 && (
        <div className="node-rows">
          {rows.map((h) => (
            <div className="node-row" key={h.id}>
              <span className="node-row-label" title={h.kind === 'router' ? `Route to ${h.label}` : undefined}>
                {h.kind === 'router' ? `→ ${h.label}` : h.label}
              </span>
              <Handle type="source" id={h.id} position={out} className={`handle-out handle-${h.kind}`} aria-label={h.kind === 'router' ? `Connect route to ${h.label} of ${data.name}` : `Connect ${h.label} of ${data.name}`} />
            </div>
          ))}
        </div>
      )}
      {plain.map((h) => (
        <Handle key={h.id} type="source" id={h.id} position={out} className="handle-out" aria-label={`Connect from ${data.name}`} />
      ))}
      {error && <Handle type="source" id="error" position={horizontal ? Position.Bottom : Position.Right} className="handle-error" aria-label={`Connect error of ${data.name}`} />}
    </div>
  );
}, sameCard);

/** A loop or parallel container: blocks are dropped into it; resizable; its start handle leads inside, its end handle out. */
export const ContainerNodeView = memo(function ContainerNodeView({ id, data, selected }: NodeProps<BlockNode>) {
  const { resize, dropTarget } = useContext(CanvasContext);
  const start = data.handles.find((h) => h.kind === 'start');
  const end = data.handles.find((h) => h.kind === 'end');
  return (
    <div className={`container-card${dropTarget === id ? ' is-drop-target' : ''}${selected ? ' is-selected' : ''}`} style={{ ['--accent' as string]: data.color }}>
      <NodeResizer isVisible={selected} minWidth={260} minHeight={160} onResizeEnd={(_e, p) => resize(id, Math.round(p.width), Math.round(p.height), { x: Math.round(p.x), y: Math.round(p.y) })} lineClassName="resize-line" handleClassName="resize-handle" />
      <Handle type="target" position={Position.Left} className="handle-in" aria-label={`Connect into ${data.name}`} />
      <div className="container-head">
        <BlockIcon icon={data.icon} color={data.color} name={data.typeName} size={22} />
        <span className="block-name">{data.name}</span>
        <span className="block-type">{data.typeName}</span>
      </div>
      {start && (
        <div className="container-start">
          Start
          <Handle type="source" id={start.id} position={Position.Right} className="handle-out" aria-label={`Connect start of ${data.name}`} />
        </div>
      )}
      {end && <Handle type="source" id={end.id} position={Position.Right} className="handle-out handle-end" aria-label={`Connect end of ${data.name}`} />}
    </div>
  );
});
