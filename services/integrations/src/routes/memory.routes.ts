import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Logger } from '@weft/platform';
import { ToolError } from '../tools/serviceTool.js';
import type { IntegrationsDB } from '../db.js';
import type { RouteRequest } from '../tools/runtime/types.js';
import { errorMessage, forLog } from '../tools/runtime/errors.js';
import { json, objectBody, str, type Route } from './router.js';

const WORKFLOW_REQUIRED = 'workflowId is required and must be provided in execution context';
const ROLES = new Set(['user', 'assistant', 'system']);
/** Longest memory key: keys are indexed, and Postgres refuses an index row over 8 kB (a 500 before this limit). */
const KEY_MAX = 255;

/** A body field that must be text when given (a number counts, as `str` reads it); another type is a 400 naming it. */
function textField(body: Record<string, unknown>, field: string): string {
  const v = body[field];
  if (v !== undefined && v !== null && typeof v !== 'string' && typeof v !== 'number') throw new ToolError(`${field} must be a string`, 400);
  return str(body, field);
}

type MemoryRow = { key: string; type: string; workflow_id: string; data: unknown; created_at: Date; updated_at: Date };

function view(row: MemoryRow) {
  return { id: row.key, key: row.key, type: row.type, workflowId: row.workflow_id, data: row.data, createdAt: row.created_at.toISOString(), updatedAt: row.updated_at.toISOString() };
}

/** Spec 001 §8: a write (add, delete) or a read (get, get all) the database could not do. */
const WRITE_FAILED = 'Memory operation failed';
const READ_FAILED = 'Failed to retrieve memory';

/**
 * The workflow whose memories a call reaches: always the call's own (the gateway set it after its
 * access check; the runner from the run). A workflowId in the body or query may only repeat it: a
 * different one is refused naming the field, so no caller reaches another workflow's memories.
 */
function workflowOf(req: RouteRequest, named: { field: string; value: string }): string {
  const own = req.context.workflowId;
  if (!own) throw new ToolError(WORKFLOW_REQUIRED, 400);
  if (named.value && named.value !== own) throw new ToolError(`workflowId in the ${named.field} (${named.value}) is not the workflow this call runs for (${own})`, 400);
  return own;
}

/** The database work of a route: a failure there answers the spec's message (500), not 'Internal server error'. */
async function stored<T>(logger: Logger, message: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    logger.error({ err: forLog(errorMessage(err)) }, message);
    throw new ToolError(message, 500);
  }
}

/**
 * Agent memories (spec 001 §7 `/api/memory`), scoped by the call's workflow: adding to an agent memory
 * with a key that exists appends the message; answers `{success, output}` with the memory tools' outputs.
 */
export function memoryRoutes(db: Kysely<IntegrationsDB>, logger: Logger): Route[] {
  return [
    {
      method: 'POST',
      path: '/memory',
      async handle(req) {
        const body = objectBody(req.body);
        const workflowId = workflowOf(req, { field: 'body', value: str(body, 'workflowId') });
        const key = textField(body, 'key') || textField(body, 'id');
        if (!key) throw new ToolError('Memory key is required', 400);
        if (key.length > KEY_MAX) throw new ToolError(`key must be at most ${KEY_MAX} characters`, 400);
        if (body.type !== undefined && body.type !== null && typeof body.type !== 'string') throw new ToolError('type must be a string', 400);
        const type = str(body, 'type') || 'agent';
        if (type.length > KEY_MAX) throw new ToolError(`type must be at most ${KEY_MAX} characters`, 400);
        if (body.data !== undefined && body.data !== null && (typeof body.data !== 'object' || Array.isArray(body.data))) throw new ToolError('data must be an object (an agent memory: {role, content})', 400);
        const raw = typeof body.data === 'object' && body.data !== null ? (body.data as Record<string, unknown>) : { role: body.role, content: body.content };
        const role = typeof raw.role === 'string' ? raw.role : '';
        const content = typeof raw.content === 'string' ? raw.content : '';
        if (type === 'agent' && (!role || !content)) throw new ToolError('Role and content are required for agent memory', 400);
        if (type === 'agent' && !ROLES.has(role)) throw new ToolError('Role must be user, assistant or system', 400);
        const message = type === 'agent' ? { role, content } : raw;
        const row = await stored(logger, WRITE_FAILED, () => db
          .insertInto('memories')
          .values({ id: randomUUID(), workflow_id: workflowId, key, type, data: JSON.stringify([message]) })
          .onConflict((oc) =>
            oc.columns(['workflow_id', 'key']).doUpdateSet({ data: sql`memories.data || excluded.data`, updated_at: sql`now()` }),
          )
          .returningAll()
          .executeTakeFirstOrThrow());
        return json({ success: true, output: { memories: row.data, id: row.key } });
      },
    },
    {
      method: 'GET',
      path: '/memory',
      async handle(req) {
        const workflowId = workflowOf(req, { field: 'query', value: req.query.workflowId ?? '' });
        const rows = await stored(logger, READ_FAILED, () => db.selectFrom('memories').selectAll().where('workflow_id', '=', workflowId).orderBy('created_at').orderBy('key').execute());
        return json({ success: true, output: { memories: rows.map(view) } });
      },
    },
    {
      method: 'GET',
      path: '/memory/:id',
      async handle(req, params) {
        const workflowId = workflowOf(req, { field: 'query', value: req.query.workflowId ?? '' });
        const row = await stored(logger, READ_FAILED, () => db.selectFrom('memories').selectAll().where('workflow_id', '=', workflowId).where('key', '=', params.id ?? '').executeTakeFirst());
        if (!row) throw new ToolError('Memory not found', 404);
        return json({ success: true, output: { memories: row.data, id: row.key } });
      },
    },
    {
      method: 'DELETE',
      path: '/memory/:id',
      async handle(req, params) {
        const workflowId = workflowOf(req, { field: 'query', value: req.query.workflowId ?? '' });
        const res = await stored(logger, WRITE_FAILED, () => db.deleteFrom('memories').where('workflow_id', '=', workflowId).where('key', '=', params.id ?? '').executeTakeFirst());
        if (Number(res.numDeletedRows) === 0) throw new ToolError('Memory not found', 404);
        return json({ success: true, output: { message: 'Memory deleted successfully' } });
      },
    },
  ];
}
