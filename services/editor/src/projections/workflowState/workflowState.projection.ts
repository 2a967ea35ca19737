import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { BlockState, WorkflowState } from '@weft/workflow';
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
 * The statements that bring the read model from `prev` to `next`, as parts of one writable CTE whose
 * `s<tag>` part answers the stream's row only when the append won (`tag` keeps the CTE names of
 * several workflows' appends in one statement apart). The domain updates immutably, so an unchanged
 * block or list is the same object: only what changed by reference is written.
 */
export function workflowStateWrites(version: number, prev: WorkflowState | undefined, next: WorkflowState, tag = ''): RawBuilder<unknown>[] {
  const s = sql.raw(`s${tag}`);
  const name = (base: string) => sql.raw(`${base}${tag}`);
  const flags = JSON.stringify(flagsOf(next));
  const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;
  const writes: RawBuilder<unknown>[] = [];
  if (prev === undefined) {
    writes.push(sql`${name('rm_state')} as (insert into workflow_states (workflow_id, version, state, edges, loops, parallels, variables)
      select ${s}.workflow_id, ${version}, ${flags}::jsonb, ${json(next.edges)}, ${json(next.loops)}, ${json(next.parallels)}, ${json(next.variables)} from ${s})`);
  } else {
    const changed = [
      sql`version = ${version}`,
      sql`state = ${flags}::jsonb`,
      sql`updated_at = now()`,
      ...(prev.edges === next.edges ? [] : [sql`edges = ${json(next.edges)}`]),
      ...(prev.loops === next.loops ? [] : [sql`loops = ${json(next.loops)}`]),
      ...(prev.parallels === next.parallels ? [] : [sql`parallels = ${json(next.parallels)}`]),
      ...(prev.variables === next.variables ? [] : [sql`variables = ${json(next.variables)}`]),
    ];
    writes.push(sql`${name('rm_state')} as (update workflow_states set ${sql.join(changed)} where workflow_id = (select workflow_id from ${s}))`);
  }
  if (prev?.blocks === next.blocks) return writes;
  const before = prev?.blocks ?? {};
  const whole: Record<string, BlockState> = {};
  const patches: Record<string, Partial<BlockState>> = {};
  for (const block of Object.values(next.blocks)) {
    // Own keys only: a block may be called `constructor` (Object.prototype's member is no old block).
    const old = Object.hasOwn(before, block.id) ? before[block.id] : undefined;
    if (old === block) continue;
    const patch = old === undefined ? undefined : changedFields(old, block);
    if (patch === undefined) whole[block.id] = block;
    else patches[block.id] = patch;
  }
  const removed = Object.keys(before).filter((id) => !Object.hasOwn(next.blocks, id));
  if (Object.keys(whole).length > 0) {
    writes.push(sql`${name('rm_blocks')} as (insert into workflow_blocks (workflow_id, block_id, block)
      select ${s}.workflow_id, b.key, b.value from ${s}, jsonb_each(${json(whole)}) b
      on conflict (workflow_id, block_id) do update set block = excluded.block)`);
  }
  if (Object.keys(patches).length > 0) {
    writes.push(sql`${name('rm_patched')} as (update workflow_blocks w set block = w.block || p.value
      from jsonb_each(${json(patches)}) p where w.workflow_id = (select workflow_id from ${s}) and w.block_id = p.key)`);
  }
  if (removed.length > 0) {
    writes.push(sql`${name('rm_removed')} as (delete from workflow_blocks where workflow_id = (select workflow_id from ${s}) and block_id = any(${removed}::text[]))`);
  }
  return writes;
}

/**
 * The top-level fields of a block that changed (by reference), or undefined when a field was removed
 * or cleared (then the whole block is written). A move sends its position, not the block's every sub-block.
 */
function changedFields(before: BlockState, after: BlockState): Partial<BlockState> | undefined {
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(before)) if (!(key in after)) return undefined;
  for (const [key, value] of Object.entries(after)) {
    if (before[key as keyof BlockState] === value) continue;
    if (value === undefined) return undefined; // JSON would drop it rather than clear it
    patch[key] = value;
  }
  return patch as Partial<BlockState>;
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
