import { sql, type Kysely, type Transaction } from 'kysely';
import type { WorkflowState } from '@weft/workflow';
import type { EditorDB } from '../../db.js';

/** The read model of one workflow as JSON text (the state without its history) and its version. */
export interface StateRow {
  version: number;
  stateJson: string;
}

/** The small part of the state rewritten on every edit. */
function flagsOf(state: WorkflowState) {
  const { blocks: _b, edges: _e, loops: _l, parallels: _p, variables: _v, history: _h, ...flags } = state;
  return flags;
}

/**
 * Brings the read model from `prev` to `next` (both at the versions the caller holds the stream lock
 * for). The domain updates immutably, so an unchanged block or list is the same object: only what
 * changed by reference is written.
 */
export async function writeWorkflowState(trx: Transaction<EditorDB>, workflowId: string, version: number, prev: WorkflowState | undefined, next: WorkflowState): Promise<void> {
  const state = JSON.stringify(flagsOf(next));
  if (prev === undefined) {
    await trx
      .insertInto('workflow_states')
      .values({
        workflow_id: workflowId,
        version,
        state,
        edges: JSON.stringify(next.edges),
        loops: JSON.stringify(next.loops),
        parallels: JSON.stringify(next.parallels),
        variables: JSON.stringify(next.variables),
      })
      .execute();
  } else {
    await trx
      .updateTable('workflow_states')
      .set({
        version,
        state,
        updated_at: new Date(),
        ...(prev.edges === next.edges ? {} : { edges: JSON.stringify(next.edges) }),
        ...(prev.loops === next.loops ? {} : { loops: JSON.stringify(next.loops) }),
        ...(prev.parallels === next.parallels ? {} : { parallels: JSON.stringify(next.parallels) }),
        ...(prev.variables === next.variables ? {} : { variables: JSON.stringify(next.variables) }),
      })
      .where('workflow_id', '=', workflowId)
      .execute();
  }
  if (prev?.blocks === next.blocks) return;
  const before = prev?.blocks ?? {};
  const changed = Object.values(next.blocks).filter((b) => before[b.id] !== b);
  const removed = Object.keys(before).filter((id) => next.blocks[id] === undefined);
  if (changed.length > 0) {
    await trx
      .insertInto('workflow_blocks')
      .values(changed.map((b) => ({ workflow_id: workflowId, block_id: b.id, block: JSON.stringify(b) })))
      .onConflict((oc) => oc.columns(['workflow_id', 'block_id']).doUpdateSet((eb) => ({ block: eb.ref('excluded.block') })))
      .execute();
  }
  if (removed.length > 0) {
    await trx.deleteFrom('workflow_blocks').where('workflow_id', '=', workflowId).where('block_id', 'in', removed).execute();
  }
}

/** Assembles the state JSON in Postgres and answers it as text, so it is never parsed on the way. */
function stateQuery(db: Kysely<EditorDB>) {
  return db.selectFrom('workflow_states as s').select([
    's.workflow_id',
    's.version',
    sql<string>`(s.state || jsonb_build_object(
      'blocks', coalesce((select jsonb_object_agg(b.block_id, b.block) from workflow_blocks b where b.workflow_id = s.workflow_id), '{}'::jsonb),
      'edges', s.edges, 'loops', s.loops, 'parallels', s.parallels, 'variables', s.variables))::text`.as('state_json'),
  ]);
}

/** The read model of one workflow, or undefined when its stream has not started. */
export async function readWorkflowState(db: Kysely<EditorDB>, workflowId: string): Promise<StateRow | undefined> {
  const row = await stateQuery(db).where('s.workflow_id', '=', workflowId).executeTakeFirst();
  return row ? { version: Number(row.version), stateJson: row.state_json } : undefined;
}

/** The read models of several workflows; missing ones are left out. */
export async function readWorkflowStates(db: Kysely<EditorDB>, workflowIds: string[]): Promise<Map<string, StateRow>> {
  if (workflowIds.length === 0) return new Map();
  const rows = await stateQuery(db).where('s.workflow_id', 'in', workflowIds).execute();
  return new Map(rows.map((r) => [r.workflow_id, { version: Number(r.version), stateJson: r.state_json }]));
}

/** A workflow's variables (id → variable) as JSON text. */
export async function readVariables(db: Kysely<EditorDB>, workflowId: string): Promise<{ version: number; variablesJson: string } | undefined> {
  const row = await db
    .selectFrom('workflow_states')
    .select(['version', sql<string>`variables::text`.as('variables_json')])
    .where('workflow_id', '=', workflowId)
    .executeTakeFirst();
  return row ? { version: Number(row.version), variablesJson: row.variables_json } : undefined;
}
