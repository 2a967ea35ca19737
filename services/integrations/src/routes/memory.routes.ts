import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { ToolError } from '../tools/serviceTool.js';
import type { IntegrationsDB } from '../db.js';
import { json, objectBody, str, type Route } from './router.js';

const WORKFLOW_REQUIRED = 'workflowId is required and must be provided in execution context';
const ROLES = new Set(['user', 'assistant', 'system']);

type MemoryRow = { key: string; type: string; workflow_id: string; data: unknown; created_at: Date; updated_at: Date };

function view(row: MemoryRow) {
  return { id: row.key, key: row.key, type: row.type, workflowId: row.workflow_id, data: row.data, createdAt: row.created_at.toISOString(), updatedAt: row.updated_at.toISOString() };
}

function workflowOf(value: string): string {
  if (!value) throw new ToolError(WORKFLOW_REQUIRED, 400);
  return value;
}

/**
 * Agent memories (spec 001 §7 `/api/memory`), scoped by workflowId: adding to an agent memory with
 * a key that exists appends the message; answers `{success, output}` with the memory tools' outputs.
 */
export function memoryRoutes(db: Kysely<IntegrationsDB>): Route[] {
  return [
    {
      method: 'POST',
      path: '/memory',
      async handle(req) {
        const body = objectBody(req.body);
        const workflowId = workflowOf(str(body, 'workflowId') || req.context.workflowId);
        const key = str(body, 'key') || str(body, 'id');
        if (!key) throw new ToolError('Memory key is required', 400);
        const type = str(body, 'type') || 'agent';
        const raw = typeof body.data === 'object' && body.data !== null ? (body.data as Record<string, unknown>) : { role: body.role, content: body.content };
        const role = typeof raw.role === 'string' ? raw.role : '';
        const content = typeof raw.content === 'string' ? raw.content : '';
        if (type === 'agent' && (!role || !content)) throw new ToolError('Role and content are required for agent memory', 400);
        if (type === 'agent' && !ROLES.has(role)) throw new ToolError('Role must be user, assistant or system', 400);
        const message = type === 'agent' ? { role, content } : raw;
        const row = await db
          .insertInto('memories')
          .values({ id: randomUUID(), workflow_id: workflowId, key, type, data: JSON.stringify([message]) })
          .onConflict((oc) =>
            oc.columns(['workflow_id', 'key']).doUpdateSet({ data: sql`memories.data || excluded.data`, updated_at: sql`now()` }),
          )
          .returningAll()
          .executeTakeFirstOrThrow();
        return json({ success: true, output: { memories: row.data, id: row.key } });
      },
    },
    {
      method: 'GET',
      path: '/memory',
      async handle(req) {
        const workflowId = workflowOf(req.query.workflowId || req.context.workflowId);
        const rows = await db.selectFrom('memories').selectAll().where('workflow_id', '=', workflowId).orderBy('created_at').orderBy('key').execute();
        return json({ success: true, output: { memories: rows.map(view) } });
      },
    },
    {
      method: 'GET',
      path: '/memory/:id',
      async handle(req, params) {
        const workflowId = workflowOf(req.query.workflowId || req.context.workflowId);
        const row = await db.selectFrom('memories').selectAll().where('workflow_id', '=', workflowId).where('key', '=', params.id ?? '').executeTakeFirst();
        if (!row) throw new ToolError('Memory not found', 404);
        return json({ success: true, output: { memories: row.data, id: row.key } });
      },
    },
    {
      method: 'DELETE',
      path: '/memory/:id',
      async handle(req, params) {
        const workflowId = workflowOf(req.query.workflowId || req.context.workflowId);
        const res = await db.deleteFrom('memories').where('workflow_id', '=', workflowId).where('key', '=', params.id ?? '').executeTakeFirst();
        if (Number(res.numDeletedRows) === 0) throw new ToolError('Memory not found', 404);
        return json({ success: true, output: { message: 'Memory deleted successfully' } });
      },
    },
  ];
}
