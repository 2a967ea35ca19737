import { AppError } from '@weft/platform';
import type { Registry } from '../ports.js';
import { emit } from '../events.js';
import { requireWorkspaceAccess } from '../access.js';
import { checkFolder, checkMetadata, getWorkflow, insertWorkflow, type WorkflowMetadata } from './workflows.js';
import { workflowEventData, type WorkflowView } from './view.js';

/**
 * How long a duplicate waits for the copy's stream: the editor starts it at once when asked (it
 * asks the registry, which has committed the copy), so this only bounds a slow editor.
 */
const STREAM_START_WAIT_MS = 5_000;

export interface DuplicateResult {
  workflow: WorkflowView;
  blocksCount: number;
  edgesCount: number;
  subflowsCount: number;
}

/**
 * Copies an entry's metadata, and through the editor its state and variables, into a new workflow,
 * as it is: the entry records its source (copied_from) and the save names it with the version read,
 * so a state stored with two starters before the one-starter rule is copied with both (issue 14).
 * The copy is removed again when the editor cannot take the state, so a failure leaves nothing behind.
 */
export async function duplicateWorkflow(r: Registry, userId: string, sourceId: string, input: WorkflowMetadata & { workspaceId?: string | undefined }): Promise<DuplicateResult> {
  checkMetadata(input);
  const { workflow: source } = await getWorkflow(r, userId, sourceId, 'read');
  const workspaceId = input.workspaceId || source.workspaceId;
  await requireWorkspaceAccess(r.db, userId, workspaceId, 'write');
  const folderId = input.folderId !== undefined ? input.folderId : workspaceId === source.workspaceId ? source.folderId : null;
  await checkFolder(r.db, workspaceId, folderId);
  const { state, version } = await r.editor.getState(sourceId);

  const copy = await r.db.transaction().execute(async (trx) => {
    const metadata = { name: input.name ?? `${source.name} (Copy)`, description: input.description ?? source.description, color: input.color ?? source.color, folderId };
    const view = await insertWorkflow(r, trx, workspaceId, userId, metadata, sourceId);
    await emit(trx, r.instance, 'workflow', view.id, 'workflowDuplicated', { workflow: workflowEventData(view), sourceWorkflowId: sourceId, createdBy: userId });
    return view;
  });
  r.kick();

  try {
    await r.editor.getState(copy.id, STREAM_START_WAIT_MS);
    const variables = Object.values(state.variables).map((v) => ({ name: v.name, type: v.type, value: v.value }));
    await r.editor.executeCommands(
      copy.id,
      [
        { type: 'replaceState', blocks: state.blocks, edges: state.edges },
        { type: 'replaceVariables', variables },
      ],
      userId,
      // A copy of what the source stored at `version`: its starters come along as they are, even two
      // from before the one-starter rule. The editor checks the copy against the source's state at
      // that version (not its current one, which an edit since the read may have changed), and
      // accepts the claim only because this entry records sourceId as what it copies.
      { copyOf: { workflowId: sourceId, version } },
    );
  } catch (err) {
    await r.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('workflows').where('id', '=', copy.id).execute();
      await emit(trx, r.instance, 'workflow', copy.id, 'workflowDeleted', { workflow: workflowEventData(copy), deletedBy: userId });
    });
    r.kick();
    // The editor may have started the copy's stream; its workflowDeleted event drops it when this cannot.
    await r.editor.dropWorkflows?.([copy.id]).catch(() => undefined);
    throw err instanceof AppError ? err : new AppError('internal', `Failed to copy the workflow state: ${String(err)}`);
  }

  return {
    workflow: copy,
    blocksCount: Object.keys(state.blocks).length,
    edgesCount: state.edges.length,
    subflowsCount: Object.keys(state.loops).length + Object.keys(state.parallels).length,
  };
}
