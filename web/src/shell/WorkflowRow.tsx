import type { WorkflowSummary } from '../api';
import { InlineEdit, Menu, MenuItem } from '../ui/Menu';
import { WORKFLOW_COLORS } from './workflowActions';

/** The drag data type of a workflow or folder moved in the sidebar (`workflow:<id>` or `folder:<id>`). */
export const SIDEBAR_DRAG_TYPE = 'application/x-weft-workflow';

/** What a workflow's row asks of the sidebar. */
export interface WorkflowRowActions {
  onOpen(id: string): void;
  /** Starts (`id`) or ends (null) renaming a row. */
  onRenaming(id: string | null): void;
  onUpdate(id: string, fields: { name?: string; color?: string; folderId?: string | null }): void;
  onDuplicate(w: WorkflowSummary): void;
  onExport(w: WorkflowSummary): void;
  /** Asks before deleting. */
  onDelete(w: WorkflowSummary): void;
}

/** One workflow in the sidebar: opens it on a click, renames it on a double click, drags into a folder, and its actions menu. */
export function WorkflowRow({ w, active, renaming, actions }: { w: WorkflowSummary; active: boolean; renaming: boolean; actions: WorkflowRowActions }) {
  const { onOpen, onRenaming, onUpdate, onDuplicate, onExport, onDelete } = actions;
  return (
    <li
      className={`wf-row${active ? ' active' : ''}`}
      draggable={!renaming}
      onDragStart={(e) => {
        e.dataTransfer.setData(SIDEBAR_DRAG_TYPE, `workflow:${w.id}`);
        e.dataTransfer.effectAllowed = 'move';
      }}
      data-workflow-id={w.id}
    >
      {renaming ? (
        <InlineEdit
          label="Workflow name"
          required="Workflow name is required"
          value={w.name}
          onCommit={(name) => {
            onRenaming(null);
            onUpdate(w.id, { name });
          }}
          onCancel={() => onRenaming(null)}
        />
      ) : (
        <button type="button" className="wf-open" onClick={() => onOpen(w.id)} onDoubleClick={() => onRenaming(w.id)}>
          <span className="swatch" style={{ background: w.color }} />
          <span className="wf-name">{w.name}</span>
        </button>
      )}
      <Menu label={`Actions for ${w.name}`} className="row-menu">
        {(close) => (
          <>
            <MenuItem onSelect={() => (close(), onRenaming(w.id))}>Rename</MenuItem>
            <MenuItem onSelect={() => (close(), onDuplicate(w))}>Duplicate</MenuItem>
            <MenuItem onSelect={() => (close(), onExport(w))}>Export YAML</MenuItem>
            {w.folderId && <MenuItem onSelect={() => (close(), onUpdate(w.id, { folderId: null }))}>Move out of folder</MenuItem>}
            <div className="menu-colors" role="group" aria-label="Colour">
              {WORKFLOW_COLORS.map((color) => (
                <button
                  key={color}
                  type="button"
                  role="menuitemradio"
                  aria-checked={w.color.toLowerCase() === color.toLowerCase()}
                  aria-label={`Colour ${color}`}
                  className="color-dot"
                  style={{ background: color }}
                  onClick={() => {
                    close();
                    onUpdate(w.id, { color });
                  }}
                />
              ))}
            </div>
            <MenuItem
              danger
              onSelect={() => {
                close();
                onDelete(w);
              }}
            >
              Delete
            </MenuItem>
          </>
        )}
      </Menu>
    </li>
  );
}
