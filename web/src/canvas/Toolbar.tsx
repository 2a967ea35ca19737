import { useState, type FormEvent } from 'react';
import type { BlockDefinition } from '../api';

interface ToolbarProps {
  palette: readonly BlockDefinition[];
  canUndo: boolean;
  canRedo: boolean;
  canDelete: boolean;
  /** The one selected block, which the name field renames. */
  selected: { id: string; name: string } | undefined;
  onAdd(blockType: string): void;
  onUndo(): void;
  onRedo(): void;
  onDelete(): void;
  onRename(id: string, name: string): void;
}

function RenameForm({ block, onRename }: { block: { id: string; name: string }; onRename: ToolbarProps['onRename'] }) {
  const [name, setName] = useState(block.name);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() !== '' && name !== block.name) onRename(block.id, name);
  };
  return (
    <form className="rename" onSubmit={submit}>
      <input aria-label="Block name" value={name} onChange={(e) => setName(e.target.value)} />
      <button type="submit">Rename</button>
    </form>
  );
}

/** The editing tools above the canvas: add a block, undo and redo, delete, rename. */
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
      {/* Keyed by the name too, so a rename from elsewhere resets the field. */}
      {props.selected && <RenameForm key={`${props.selected.id}:${props.selected.name}`} block={props.selected} onRename={props.onRename} />}
    </div>
  );
}
