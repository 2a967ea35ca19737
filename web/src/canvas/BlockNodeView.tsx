import { Handle, Position, type NodeProps } from '@xyflow/react';
import type { BlockNode } from './flow';

/** A block on the canvas: its type, its name, and a handle on each side to connect it. */
export function BlockNodeView({ data }: NodeProps<BlockNode>) {
  const [into, out] = data.horizontal ? [Position.Left, Position.Right] : [Position.Top, Position.Bottom];
  return (
    <>
      <Handle type="target" position={into} aria-label={`Connect into ${data.name}`} />
      <div className="block-type">
        <span className="swatch" style={{ background: data.color ?? '#8c959f' }} />
        {data.typeName}
      </div>
      <div className="block-name">{data.name}</div>
      <Handle type="source" position={out} aria-label={`Connect from ${data.name}`} />
    </>
  );
}
