import { AppError } from '@weft/platform';
import type { Registry } from '../ports.js';
import { emit } from '../events.js';
import { getWorkflow } from '../entries/workflows.js';
import { validateCustomTools } from './validate.js';

export interface CustomToolView {
  id: string;
  title: string;
  schema: Record<string, unknown>;
  code: string;
  createdAt: string;
  updatedAt: string;
}

/** The caller's custom tools; with a workflow id, only after checking the caller may read it. */
export async function listCustomTools(r: Registry, userId: string, workflowId?: string): Promise<CustomToolView[]> {
  if (workflowId) await getWorkflow(r, userId, workflowId, 'read');
  const rows = await r.db.selectFrom('custom_tools').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
  return rows.map((row) => ({ id: row.id, title: row.title, schema: row.schema, code: row.code, createdAt: row.created_at.toISOString(), updatedAt: row.updated_at.toISOString() }));
}

/** Inserts or updates a validated batch in one transaction; an invalid tool stores nothing. */
export async function upsertCustomTools(r: Registry, userId: string, input: unknown): Promise<CustomToolView[]> {
  const tools = validateCustomTools(input);
  await r.db.transaction().execute(async (trx) => {
    for (const tool of tools) {
      const schema = JSON.stringify(tool.schema);
      await trx
        .insertInto('custom_tools')
        .values({ id: tool.id, user_id: userId, title: tool.title, schema, code: tool.code, created_at: r.now(), updated_at: r.now() })
        .onConflict((oc) => oc.columns(['user_id', 'id']).doUpdateSet({ title: tool.title, schema, code: tool.code, updated_at: r.now() }))
        .execute();
    }
    await emit(trx, r.instance, 'user', userId, 'customToolsUpserted', { userId, toolIds: tools.map((t) => t.id) });
  });
  r.kick();
  return listCustomTools(r, userId);
}

/** Deletes one of the caller's tools. */
export async function deleteCustomTool(r: Registry, userId: string, toolId: string): Promise<void> {
  if (!toolId) throw new AppError('validation', 'Tool id is required');
  await r.db.transaction().execute(async (trx) => {
    const res = await trx.deleteFrom('custom_tools').where('user_id', '=', userId).where('id', '=', toolId).executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) throw new AppError('not_found', `Custom tool ${toolId} not found`);
    await emit(trx, r.instance, 'user', userId, 'customToolDeleted', { userId, toolId });
  });
  r.kick();
}
