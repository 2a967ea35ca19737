import type { Kysely, Transaction } from 'kysely';
import { AppError, appendOutbox, createEnvelope, type EventEnvelope } from '@weft/platform';
import { decideBatch, evolve, initialState, replay, startWorkflow, type Command, type DecideContext, type WorkflowEvent, type WorkflowState } from '@weft/workflow';
import type { EditorDB } from '../db.js';

/** A snapshot is taken whenever a stream crosses a multiple of this many events. */
export const SNAPSHOT_EVERY = 100;

/** An event as stored and published: the domain event with its stream position. */
export interface StoredEvent {
  version: number;
  type: WorkflowEvent['type'];
  data: WorkflowEvent;
  occurredAt: string;
}

export interface CommandResult {
  version: number;
  events: StoredEvent[];
}

export interface EventStoreDeps {
  db: Kysely<EditorDB>;
  instance: string;
  /** Builds the decide context for one call (clock, ids, catalogue, deployed state). */
  context(workflowId: string): DecideContext;
  /** Called after a transaction that wrote events commits (the service wakes its outbox relay). */
  afterCommit?: () => void;
}

/** Subject of the editor's events about one workflow (ARCHITECTURE.md). */
export function editorSubject(instance: string, workflowId: string): string {
  return `${instance}.editor.workflow.${workflowId}`;
}

/** The workflow state without its undo history: what GET /api/workflows/{id} shows. */
export function projectState(state: WorkflowState): Omit<WorkflowState, 'history'> {
  const { history: _history, ...rest } = state;
  return rest;
}

/**
 * The editor's event store: streams of editing events per workflow, a read model updated in the
 * same transaction, snapshots every SNAPSHOT_EVERY events, command ids for idempotency, and the
 * outbox row that publishes each event.
 */
export function createEventStore(deps: EventStoreDeps) {
  const { db, instance } = deps;
  // Last state per workflow; trusted only when its version equals the stream's locked version.
  const cache = new Map<string, { version: number; state: WorkflowState }>();
  const CACHE_LIMIT = 500;

  function remember(workflowId: string, version: number, state: WorkflowState): void {
    cache.delete(workflowId);
    cache.set(workflowId, { version, state });
    if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  }

  async function load(trx: Kysely<EditorDB>, workflowId: string, version: number): Promise<WorkflowState> {
    const cached = cache.get(workflowId);
    if (cached && cached.version === version) return cached.state;
    return loadFromStore(trx, workflowId);
  }

  /** Latest snapshot plus the events after it. */
  async function loadFromStore(trx: Kysely<EditorDB>, workflowId: string): Promise<WorkflowState> {
    const snap = await trx.selectFrom('snapshots').select(['version', 'state']).where('workflow_id', '=', workflowId).executeTakeFirst();
    const from = snap ? Number(snap.version) : 0;
    const rows = await trx.selectFrom('events').select(['data']).where('workflow_id', '=', workflowId).where('version', '>', from).orderBy('version').execute();
    return replay(
      rows.map((r) => r.data as WorkflowEvent),
      snap ? (snap.state as WorkflowState) : initialState(),
    );
  }

  async function append(trx: Transaction<EditorDB>, workflowId: string, before: number, state: WorkflowState, events: WorkflowEvent[]): Promise<{ state: WorkflowState; stored: StoredEvent[] }> {
    const occurredAt = new Date().toISOString();
    const stored = events.map((e, i) => ({ version: before + i + 1, type: e.type, data: e, occurredAt }));
    let next = state;
    for (const e of events) next = evolve(next, e);
    const version = before + events.length;
    await trx
      .insertInto('events')
      .values(stored.map((s) => ({ workflow_id: workflowId, version: s.version, type: s.type, data: JSON.stringify(s.data), occurred_at: occurredAt })))
      .execute();
    await trx.updateTable('streams').set({ version, updated_at: new Date() }).where('workflow_id', '=', workflowId).execute();
    const projection = JSON.stringify(projectState(next));
    await trx
      .insertInto('workflow_states')
      .values({ workflow_id: workflowId, version, state: projection })
      .onConflict((oc) => oc.column('workflow_id').doUpdateSet({ version, state: projection, updated_at: new Date() }))
      .execute();
    if (Math.floor(version / SNAPSHOT_EVERY) > Math.floor(before / SNAPSHOT_EVERY)) {
      const snapshot = JSON.stringify(next);
      await trx
        .insertInto('snapshots')
        .values({ workflow_id: workflowId, version, state: snapshot })
        .onConflict((oc) => oc.column('workflow_id').doUpdateSet({ version, state: snapshot, taken_at: new Date() }))
        .execute();
    }
    const envelopes: EventEnvelope[] = stored.map((s) => createEnvelope(editorSubject(instance, workflowId), s.type, { workflowId, ...s }));
    await appendOutbox(trx, envelopes);
    return { state: next, stored };
  }

  return {
    /** Starts a workflow's stream with its starter block; a second start of the same id does nothing. */
    async startStream(trx: Transaction<EditorDB>, workflowId: string): Promise<boolean> {
      const inserted = await trx.insertInto('streams').values({ workflow_id: workflowId, version: 0 }).onConflict((oc) => oc.doNothing()).executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      const events = startWorkflow(deps.context(workflowId));
      await append(trx, workflowId, 0, initialState(), events);
      return true;
    },

    /** Applies a batch of commands atomically (see the issue: stale version → 409, repeated id → first answer). */
    async execute(workflowId: string, commands: Command[], opts: { expectedVersion?: number | undefined; commandId?: string | undefined }): Promise<CommandResult> {
      let committed: { version: number; state: WorkflowState } | undefined;
      const result = await db.transaction().execute(async (trx) => {
        const stream = await trx.selectFrom('streams').select('version').where('workflow_id', '=', workflowId).forUpdate().executeTakeFirst();
        if (!stream) throw new AppError('not_found', `Workflow ${workflowId} not found`);
        const current = Number(stream.version);
        if (opts.commandId) {
          const done = await trx.selectFrom('processed_commands').select('result').where('workflow_id', '=', workflowId).where('command_id', '=', opts.commandId).executeTakeFirst();
          if (done) return done.result as CommandResult;
        }
        if (opts.expectedVersion !== undefined && opts.expectedVersion !== current) {
          throw new AppError('conflict', `Version conflict: expected ${opts.expectedVersion}, current is ${current}`, { currentVersion: current });
        }
        const state = await load(trx, workflowId, current);
        const events = decideBatch(state, commands, deps.context(workflowId));
        const { state: next, stored } = await append(trx, workflowId, current, state, events);
        const res: CommandResult = { version: current + events.length, events: stored };
        if (opts.commandId) {
          await trx.insertInto('processed_commands').values({ workflow_id: workflowId, command_id: opts.commandId, result: JSON.stringify(res) }).execute();
        }
        committed = { version: res.version, state: next };
        return res;
      });
      if (committed) {
        remember(workflowId, committed.version, committed.state);
        deps.afterCommit?.();
      }
      return result;
    },

    /** The read model of one workflow, or undefined when its stream has not started. */
    async readState(workflowId: string): Promise<{ version: number; state: unknown } | undefined> {
      const row = await db.selectFrom('workflow_states').select(['version', 'state']).where('workflow_id', '=', workflowId).executeTakeFirst();
      return row ? { version: Number(row.version), state: row.state } : undefined;
    },

    async readStates(workflowIds: string[]): Promise<Map<string, { version: number; state: unknown }>> {
      if (workflowIds.length === 0) return new Map();
      const rows = await db.selectFrom('workflow_states').select(['workflow_id', 'version', 'state']).where('workflow_id', 'in', workflowIds).execute();
      return new Map(rows.map((r) => [r.workflow_id, { version: Number(r.version), state: r.state }]));
    },

    /** The full state (with history), replayed from the store; used by tests and history views. */
    async loadFull(workflowId: string): Promise<WorkflowState | undefined> {
      const stream = await db.selectFrom('streams').select('version').where('workflow_id', '=', workflowId).executeTakeFirst();
      if (!stream) return undefined;
      return loadFromStore(db, workflowId);
    },

    /** Drops a workflow's stream and everything projected from it. */
    async dropStream(trx: Transaction<EditorDB>, workflowId: string): Promise<void> {
      await trx.deleteFrom('streams').where('workflow_id', '=', workflowId).execute();
      cache.delete(workflowId);
    },

    /** Test hook: forget cached states so the next command loads from snapshot + tail. */
    clearCache(): void {
      cache.clear();
    },
  };
}

export type EventStore = ReturnType<typeof createEventStore>;

