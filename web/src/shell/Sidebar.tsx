import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, type Folder, type WorkflowSummary, type Workspace } from '../api';
import { navigate, useLocation } from '../router';
import { Icon } from '../ui/icons';
import { InlineEdit, Menu, MenuItem } from '../ui/Menu';
import { useConfirm } from '../ui/confirm';
import { useToast } from '../ui/toast';
import { SIDEBAR_SHORTCUT } from './keys';
import { PaneToggle, Rail } from './PaneToggle';
import { useCreateWorkflow } from './useCreateWorkflow';
import { ancestors, copyName, failure, isUpgradeRequired, yamlFileName } from './workflowActions';
import { SIDEBAR_DRAG_TYPE, WorkflowRow, type WorkflowRowActions } from './WorkflowRow';

interface SidebarProps {
  workspaces: Workspace[];
  workspace: Workspace | undefined;
  onWorkspace(id: string): void;
  activeId: string | null;
  onOpen(id: string | null): void;
  userName: string;
  /** Open, or collapsed to a rail (its content stays mounted, so nothing being edited in it is lost). */
  open: boolean;
  onToggle(): void;
}


function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/yaml' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

/** The workspace sidebar: workspaces, folders and workflows with their actions, settings and sign-out. */
export function Sidebar({ workspaces, workspace, onWorkspace, activeId, onOpen, userName, open, onToggle }: SidebarProps) {
  const toast = useToast();
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const { path } = useLocation();
  const workspaceId = workspace?.id ?? '';
  const listKey = ['workflows', workspaceId];
  const workflows = useQuery({ queryKey: listKey, queryFn: () => api.workflows(workspaceId), enabled: Boolean(workspace) });
  const folders = useQuery({ queryKey: ['folders', workspaceId], queryFn: () => api.folders(workspaceId), enabled: Boolean(workspace) });
  const [renaming, setRenaming] = useState<string | null>(null);
  // The folder just made by "New folder", while its name is first edited: Escape then cancels making it.
  const [freshFolder, setFreshFolder] = useState<string | null>(null);
  const [dropTarget, setDropTarget] = useState<string | null>(null);
  const importInput = useRef<HTMLInputElement>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: listKey });
  const refreshFolders = () => queryClient.invalidateQueries({ queryKey: ['folders', workspaceId] });

  const create = useCreateWorkflow(workspaceId, onOpen);

  /** Optimistic metadata change; a failure puts the list back and says so (spec 000 §8). */
  const update = useMutation({
    mutationFn: ({ id, fields }: { id: string; fields: { name?: string; color?: string; folderId?: string | null } }) => api.updateWorkflow(id, fields),
    onMutate: async ({ id, fields }) => {
      await queryClient.cancelQueries({ queryKey: listKey });
      const before = queryClient.getQueryData<WorkflowSummary[]>(listKey);
      queryClient.setQueryData<WorkflowSummary[]>(listKey, (list) => list?.map((w) => (w.id === id ? { ...w, ...fields } : w)));
      return { before };
    },
    onError: (error, _vars, context) => {
      queryClient.setQueryData(listKey, context?.before);
      toast.error(failure('update', error));
    },
    onSettled: async (_data, _error, { id }) => {
      await refresh();
      await queryClient.invalidateQueries({ queryKey: ['workflow', id] });
    },
  });

  const duplicate = useMutation({
    mutationFn: (w: WorkflowSummary) => api.duplicateWorkflow(w.id, { name: copyName(w.name), description: w.description, color: w.color, workspaceId, folderId: w.folderId }),
    onSuccess: async (copy) => {
      await refresh();
      onOpen(copy.id);
    },
    onError: (error) => (isUpgradeRequired(error) ? navigate(`/payments?reason=${encodeURIComponent(error.message)}`) : toast.error(failure('duplicate', error))),
  });

  const remove = useMutation({
    mutationFn: (id: string) => api.deleteWorkflow(id),
    onSuccess: async (_data, id) => {
      // Deleting the open workflow clears the editor and leaves none open (spec 000 §4).
      if (id === activeId) onOpen(null);
      await refresh();
    },
    onError: (error) => toast.error(failure('delete', error)),
  });

  const exportYaml = async (w: WorkflowSummary) => {
    try {
      download(yamlFileName(w.name), await api.exportYaml(w.id));
    } catch (error) {
      toast.error(failure('export', error));
    }
  };

  const importYaml = async (file: File) => {
    let createdId: string | null = null;
    try {
      const text = await file.text();
      const created = await api.createWorkflow(workspaceId, { name: file.name.replace(/\.ya?ml$/i, '') });
      createdId = created.id;
      await api.workflow(created.id);
      const out = await api.importYaml(created.id, text);
      if (out.success === false) throw new Error(out.message ?? 'the YAML was refused');
      await refresh();
      onOpen(created.id);
      toast.success(`Imported ${file.name}`);
      // What the import left out to keep the rules (a second starter, …): each said until dismissed.
      for (const warning of out.warnings ?? []) toast.show(`${file.name}: ${warning}`, 'info', { sticky: true });
    } catch (error) {
      if (isUpgradeRequired(error)) navigate(`/payments?reason=${encodeURIComponent(error.message)}`);
      else toast.error(failure('import', error));
      if (createdId) {
        await api.deleteWorkflow(createdId).catch(() => undefined);
        await refresh();
      }
    }
  };

  const createFolder = useMutation({
    mutationFn: (parentId: string | undefined) => api.createFolder(workspaceId, 'New folder', parentId),
    onSuccess: async (folder) => {
      await refreshFolders();
      setFreshFolder(folder.id);
      setRenaming(`folder:${folder.id}`);
    },
    onError: (error) => toast.error(`Failed to create folder: ${error.message}`),
  });
  const updateFolder = useMutation({
    mutationFn: ({ id, fields }: { id: string; fields: { name?: string; parentId?: string | null; isExpanded?: boolean } }) => api.updateFolder(id, fields),
    onSettled: refreshFolders,
    onError: (error) => toast.error(`Failed to update folder: ${error.message}`),
  });
  const deleteFolder = useMutation({
    mutationFn: (id: string) => api.deleteFolder(id),
    onSuccess: async () => {
      await refreshFolders();
      await refresh();
    },
    onError: (error) => toast.error(`Failed to delete folder: ${error.message}`),
  });

  const folderList = folders.data ?? [];
  const parentOf = (id: string) => folderList.find((f) => f.id === id)?.parentId ?? null;
  const onDrop = (folderId: string | null) => (e: DragEvent) => {
    e.preventDefault();
    setDropTarget(null);
    const data = e.dataTransfer.getData(SIDEBAR_DRAG_TYPE);
    if (data.startsWith('workflow:')) {
      const id = data.slice('workflow:'.length);
      const w = workflows.data?.find((x) => x.id === id);
      if (w && (w.folderId ?? null) !== folderId) update.mutate({ id, fields: { folderId } });
    } else if (data.startsWith('folder:')) {
      const id = data.slice('folder:'.length);
      if (folderId !== null && ancestors(folderId, parentOf).includes(id)) return;
      if (parentOf(id) !== folderId) updateFolder.mutate({ id, fields: { parentId: folderId } });
    }
  };
  const dropZone = (key: string | null) => ({
    onDragOver: (e: DragEvent) => {
      if (![...e.dataTransfer.types].includes(SIDEBAR_DRAG_TYPE)) return;
      e.preventDefault();
      e.stopPropagation();
      setDropTarget(key ?? 'root');
    },
    onDragLeave: () => setDropTarget(null),
    onDrop: (e: DragEvent) => {
      e.stopPropagation();
      onDrop(key)(e);
    },
  });

  const listError =
    workflows.error instanceof ApiError && workflows.error.status === 403
      ? 'Access denied to workspace'
      : workflows.error && !(workflows.error instanceof ApiError && workflows.error.status === 401)
        ? failure('load', workflows.error)
        : null;
  // Spec 000 §8: the list's failure is a toast as well as the line above the list.
  useEffect(() => {
    if (listError) toast.error(listError);
  }, [listError, toast]);

  const rowActions: WorkflowRowActions = {
    onOpen,
    onRenaming: setRenaming,
    onUpdate: (id, fields) => update.mutate({ id, fields }),
    onDuplicate: (w) => duplicate.mutate(w),
    onExport: (w) => void exportYaml(w),
    onDelete: (w) =>
      void confirm({ title: `Delete “${w.name}”?`, message: 'The workflow and its deployment are deleted. This cannot be undone.', confirmLabel: 'Delete workflow' }).then((yes) => yes && remove.mutate(w.id)),
  };
  const workflowRow = (w: WorkflowSummary) => <WorkflowRow key={w.id} w={w} active={w.id === activeId} renaming={renaming === w.id} actions={rowActions} />;

  const folderNode = (folder: Folder, depth: number) => {
    const key = `folder:${folder.id}`;
    const expanded = folder.isExpanded !== false;
    const children = folderList.filter((f) => f.parentId === folder.id);
    const items = (workflows.data ?? []).filter((w) => w.folderId === folder.id);
    return (
      <li key={folder.id} className={`folder${dropTarget === folder.id ? ' drop' : ''}`} {...dropZone(folder.id)} data-folder-id={folder.id}>
        <div
          className="folder-row"
          draggable={renaming !== key}
          onDragStart={(e) => {
            e.stopPropagation();
            e.dataTransfer.setData(SIDEBAR_DRAG_TYPE, `folder:${folder.id}`);
          }}
        >
          <button type="button" className="icon-btn folder-toggle" aria-label={expanded ? `Collapse ${folder.name}` : `Expand ${folder.name}`} onClick={() => updateFolder.mutate({ id: folder.id, fields: { isExpanded: !expanded } })}>
            <Icon name={expanded ? 'chevronDown' : 'chevron'} size={14} />
          </button>
          <Icon name="folder" size={15} className="folder-icon" />
          {renaming === key ? (
            <InlineEdit
              label="Folder name"
              required="Folder name is required"
              value={folder.name}
              onCommit={(name) => {
                setRenaming(null);
                setFreshFolder(null);
                updateFolder.mutate({ id: folder.id, fields: { name } });
              }}
              onCancel={(escaped) => {
                setRenaming(null);
                setFreshFolder(null);
                if (escaped && freshFolder === folder.id) deleteFolder.mutate(folder.id);
              }}
            />
          ) : (
            <span className="folder-name" onDoubleClick={() => (setFreshFolder(null), setRenaming(key))}>
              {folder.name}
            </span>
          )}
          <Menu label={`Actions for folder ${folder.name}`} className="row-menu">
            {(close) => (
              <>
                <MenuItem onSelect={() => (close(), create.mutate(folder.id))}>New workflow here</MenuItem>
                <MenuItem onSelect={() => (close(), createFolder.mutate(folder.id))}>New subfolder</MenuItem>
                <MenuItem onSelect={() => (close(), setFreshFolder(null), setRenaming(key))}>Rename</MenuItem>
                {folder.parentId && <MenuItem onSelect={() => (close(), updateFolder.mutate({ id: folder.id, fields: { parentId: null } }))}>Move to top level</MenuItem>}
                <MenuItem
                  danger
                  onSelect={() => {
                    close();
                    void confirm({ title: `Delete folder “${folder.name}”?`, message: 'Its subfolders go with it. The workflows in them are kept and move up to where the folder was.', confirmLabel: 'Delete folder' }).then(
                      (yes) => yes && deleteFolder.mutate(folder.id),
                    );
                  }}
                >
                  Delete
                </MenuItem>
              </>
            )}
          </Menu>
        </div>
        {expanded && (children.length > 0 || items.length > 0) && (
          <ul className="tree" style={{ paddingLeft: depth < 6 ? 14 : 0 }} aria-label={`Folder ${folder.name}`}>
            {children.map((f) => (
              folderNode(f, depth + 1)
            ))}
            {items.map((w) => (
              workflowRow(w)
            ))}
          </ul>
        )}
      </li>
    );
  };

  const known = new Set(folderList.map((f) => f.id));
  const rootFolders = folderList.filter((f) => f.parentId === null || !known.has(f.parentId));
  // Until the folders arrive, a workflow filed in one would show at the top level and then jump into it.
  const rootWorkflows = folders.isLoading ? [] : (workflows.data ?? []).filter((w) => !w.folderId || !known.has(w.folderId));

  return (
    <>
      {!open && (
        <Rail part="sidebar" toggleLabel="Show sidebar" shortcut={SIDEBAR_SHORTCUT} onOpen={onToggle}>
          <button type="button" className="icon-btn" aria-label="New workflow" title="New workflow" disabled={!workspace || create.isPending} onClick={() => create.mutate(null)}>
            <Icon name="plus" />
          </button>
          <span className="grow" />
          <button type="button" className="icon-btn" aria-label="Schedules" title="Schedules" aria-current={path === '/schedules' ? 'page' : undefined} onClick={() => navigate('/schedules')}>
            <Icon name="ScheduleIcon" />
          </button>
          <button type="button" className="icon-btn" aria-label="Settings" title="Settings" onClick={() => navigate('/settings/environment')}>
            <Icon name="settings" />
          </button>
        </Rail>
      )}
      <aside className="sidebar" aria-label="Sidebar" hidden={!open}>
        <div className="brand">
          <span className="logo-mark" aria-hidden="true" />
          <span className="brand-name">Weft</span>
          <PaneToggle label="Hide sidebar" side="left" expanded shortcut={SIDEBAR_SHORTCUT} onClick={onToggle} />
        </div>
        <label className="workspace-picker">
          <span className="sr-only">Workspace</span>
          <select aria-label="Workspace" value={workspace?.id ?? ''} onChange={(e) => onWorkspace(e.target.value)}>
            {workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
        <div className="sidebar-actions">
          <button type="button" className="btn btn-primary btn-sm grow" disabled={!workspace || create.isPending} onClick={() => create.mutate(null)}>
            <Icon name="plus" size={14} /> New workflow
          </button>
          <button type="button" className="icon-btn bordered" aria-label="New folder" title="New folder" disabled={!workspace} onClick={() => createFolder.mutate(undefined)}>
            <Icon name="folderPlus" />
          </button>
          <button type="button" className="icon-btn bordered" aria-label="Import YAML" title="Import YAML" disabled={!workspace} onClick={() => importInput.current?.click()}>
            <Icon name="upload" />
          </button>
          <input
            ref={importInput}
            type="file"
            accept=".yaml,.yml,text/yaml"
            hidden
            aria-label="YAML file to import"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void importYaml(file);
            }}
          />
        </div>
        {listError && <p className="sidebar-error">{listError}</p>}
        <nav className={`sidebar-tree${dropTarget === 'root' ? ' drop' : ''}`} {...dropZone(null)}>
          <ul className="tree" aria-label="Folders">
            {rootFolders.map((f) => (
              folderNode(f, 0)
            ))}
          </ul>
          <ul className="tree" aria-label="Workflows">
            {rootWorkflows.map((w) => (
              workflowRow(w)
            ))}
          </ul>
          {workflows.data?.length === 0 && <p className="muted pad">No workflows yet.</p>}
        </nav>
        <div className="sidebar-footer">
          <button type="button" className={`nav-link${path === '/schedules' ? ' active' : ''}`} aria-current={path === '/schedules' ? 'page' : undefined} onClick={() => navigate('/schedules')}>
            <Icon name="ScheduleIcon" /> Schedules
          </button>
          <button type="button" className="nav-link" onClick={() => navigate('/settings/environment')}>
            <Icon name="settings" /> Settings
          </button>
          <div className="user-row">
            <span className="avatar">{userName.slice(0, 1).toUpperCase()}</span>
            <span className="user-name">{userName}</span>
            <button
              type="button"
              className="icon-btn"
              aria-label="Sign out"
              title="Sign out"
              onClick={() => {
                void api
                  .signOut()
                  .catch(() => undefined)
                  .then(() => window.location.assign('/sign-in'));
              }}
            >
              <Icon name="logout" />
            </button>
          </div>
        </div>
      </aside>
    </>
  );
}
