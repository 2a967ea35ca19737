import { useState } from 'react';
import type { BlockDefinition } from '../api';

interface ToolbarProps {
  palette: readonly BlockDefinition[];
  canUndo: boolean;
  canRedo: boolean;
  canDelete: boolean;
  onAdd(blockType: string): void;
  onUndo(): void;
  onRedo(): void;
  onDelete(): void;
}

/** The editing tools above the canvas: add a block, undo and redo, delete. */
export function Toolbar(props: ToolbarProps) {
  const [blockType, setBlockType] = useState('');
  const chosen = blockType || props.palette[0]?.type || '';
  return (
    <div className="toolbar" role="toolbar" aria-label="Editing tools">
      <select aria-label="Block type" value={chosen} onChange={(e) => setBlockType(e.target.value)}>
        {props.palette.map((b) => (
          <option key={b.type} value={b.type}>
            {b.name}
          </option>
        ))}
      </select>
      <button type="button" disabled={!chosen} onClick={() => props.onAdd(chosen)}>
        Add block
      </button>
      <button type="button" disabled={!props.canUndo} onClick={props.onUndo}>
        Undo
      </button>
      <button type="button" disabled={!props.canRedo} onClick={props.onRedo}>
        Redo
      </button>
      <button type="button" disabled={!props.canDelete} onClick={props.onDelete}>
        Delete selected
      </button>
    </div>
  );
}
