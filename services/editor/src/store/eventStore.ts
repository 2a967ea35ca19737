import { sql, type Kysely, type Transaction } from 'kysely';
import { AppError, createEnvelope, type EventEnvelope } from '@weft/platform';
import { decideBatch, evolve, initialState, replay, startWorkflow, type Command, type DecideContext, type DeployedState, type WorkflowEvent, type WorkflowState } from '@weft/workflow';
import type { EditorDB } from '../db.js';
import { readVariables, readWorkflowState, readWorkflowStates, writeWorkflowState, type StateRow } from '../projections/workflowState/workflowState.projection.js';
import { createKeyedBatcher, type Outcome } from './batcher.js';
import { decodeSnapshot, encodeSnapshot } from './snapshotCodec.js';

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

export interface ExecuteOptions {
  expectedVersion?: number | undefined;
  commandId?: string | undefined;
  /** The deployed state for revertToDeployed, when the caller could get it from the registry. */
  deployedState?: DeployedState | undefined;
}

export interface EventStoreDeps {
  db: Kysely<EditorDB>;
  instance: string;
  /** Builds the decide context for one call (clock, ids, catalogue). */
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

/** Writes the outbox rows of a batch in one statement (the platform helper writes one row per call). */
async function appendOutboxRows(trx: Transaction<EditorDB>, envelopes: EventEnvelope[]): Promise<void> {
  if (envelopes.length === 0) return;
  await sql`insert into outbox (id, subject, envelope) values ${sql.join(envelopes.map((e) => sql`(${e.id}, ${e.subject}, ${JSON.stringify(e)}::jsonb)`))}`.execute(trx);
}

interface Pending {
  commands: Command[];
  opts: ExecuteOptions;
}

/**
 * The editor's event store: streams of editing events per workflow, a read model updated in the
 * same transaction, snapshots every SNAPSHOT_EVERY events, command ids for idempotency, and the
 * outbox row that publishes each event. Concurrent commands on one workflow are committed together
 * (one transaction, one lock) while each keeps its own answer.
 */
export function createEventStore(deps: EventStoreDeps) {
  const { db, instance } = deps;
  // Last state per workflow; trusted only when its version equals the stream's locked version.
  const cache = new Map<string, { version: number; state: WorkflowState }>();
  const CACHE_LIMIT = 500;

  function remember(workflowId: string, version: number, state: WorkflowState): void {
    const known = cache.get(workflowId);
    if (known && known.version > version) return;
    cache.delete(workflowId);
    cache.set(workflowId, { version, state });
    if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  }

  /** Latest snapshot plus the events after it, and the version that makes. */
  async function loadFromStore(trx: Kysely<EditorDB>, workflowId: string): Promise<{ version: number; state: WorkflowState }> {
    const snap = await trx.selectFrom('snapshots').select(['version', 'state']).where('workflow_id', '=', workflowId).executeTakeFirst();
    const from = snap ? Number(snap.version) : 0;
    const rows = await trx.selectFrom('events').select(['version', 'data']).where('workflow_id', '=', workflowId).where('version', '>', from).orderBy('version').execute();
    const state = replay(
      rows.map((r) => r.data as WorkflowEvent),
      snap ? decodeSnapshot(snap.state) : initialState(),
    );
    return { version: rows.length > 0 ? Number(rows[rows.length - 1]?.version) : from, state };
  }

  async function load(trx: Kysely<EditorDB>, workflowId: string, version: number): Promise<WorkflowState> {
    const cached = cache.get(workflowId);
    if (cached && cached.version === version) return cached.state;
    return (await loadFromStore(trx, workflowId)).state;
  }

  /** Appends stored events after `before`, moving the read model from `prev` to `next`. */
  async function append(trx: Transaction<EditorDB>, workflowId: string, before: number, prev: WorkflowState | undefined, next: WorkflowState, stored: StoredEvent[]): Promise<void> {
    const version = before + stored.length;
    await trx
      .insertInto('events')
      .values(stored.map((s) => ({ workflow_id: workflowId, version: s.version, type: s.type, data: JSON.stringify(s.data), occurred_at: s.occurredAt })))
      .execute();
    await trx.updateTable('streams').set({ version, updated_at: new Date() }).where('workflow_id', '=', workflowId).execute();
    await writeWorkflowState(trx, workflowId, version, prev, next);
    if (Math.floor(version / SNAPSHOT_EVERY) > Math.floor(before / SNAPSHOT_EVERY)) {
      const snapshot = JSON.stringify(encodeSnapshot(next));
      await trx
        .insertInto('snapshots')
        .values({ workflow_id: workflowId, version, state: snapshot })
        .onConflict((oc) => oc.column('workflow_id').doUpdateSet({ version, state: snapshot, taken_at: new Date() }))
        .execute();
    }
    await appendOutboxRows(
      trx,
      stored.map((s) => createEnvelope(editorSubject(instance, workflowId), s.type, { workflowId, ...s })),
    );
  }

  function toStored(events: WorkflowEvent[], before: number): StoredEvent[] {
    const occurredAt = new Date().toISOString();
    return events.map((e, i) => ({ version: before + i + 1, type: e.type, data: e, occurredAt }));
  }

  /** One transaction for a group of commands on one workflow; each is decided on the state the previous ones left. */
  async function commitGroup(workflowId: string, group: Pending[]): Promise<Array<Outcome<CommandResult>>> {
    let committed: { version: number; state: WorkflowState; wrote: boolean } | undefined;
    const outcomes = await db.transaction().execute(async (trx) => {
      const stream = await trx.selectFrom('streams').select('version').where('workflow_id', '=', workflowId).forUpdate().executeTakeFirst();
      if (!stream) throw new AppError('not_found', `Workflow ${workflowId} not found`);
      const start = Number(stream.version);
      const ids = group.flatMap((p) => (p.opts.commandId ? [p.opts.commandId] : []));
      const done = new Map<string, CommandResult>();
      if (ids.length > 0) {
        const rows = await trx.selectFrom('processed_commands').select(['command_id', 'result']).where('workflow_id', '=', workflowId).where('command_id', 'in', ids).execute();
        for (const r of rows) done.set(r.command_id, r.result as CommandResult);
      }
      const first = await load(trx, workflowId, start);
      let state = first;
      let version = start;
      const stored: StoredEvent[] = [];
      const processed: Array<{ workflow_id: string; command_id: string; result: string }> = [];
      const out: Array<Outcome<CommandResult>> = group.map(({ commands, opts }) => {
        const prior = opts.commandId ? done.get(opts.commandId) : undefined;
        if (prior) return { ok: true, value: prior };
        if (opts.expectedVersion !== undefined && opts.expectedVersion !== version) {
          return { ok: false, error: new AppError('conflict', `Version conflict: expected ${opts.expectedVersion}, current is ${version}`, { currentVersion: version }) };
        }
        let events: WorkflowEvent[];
        try {
          const ctx = deps.context(workflowId);
          events = decideBatch(state, commands, opts.deployedState ? { ...ctx, deployedState: opts.deployedState } : ctx);
        } catch (error) {
          return { ok: false, error };
        }
        const mine = toStored(events, version);
        state = events.reduce(evolve, state);
        version += events.length;
        stored.push(...mine);
        const result: CommandResult = { version, events: mine };
        if (opts.commandId) {
          done.set(opts.commandId, result);
          processed.push({ workflow_id: workflowId, command_id: opts.commandId, result: JSON.stringify(result) });
        }
        return { ok: true, value: result };
      });
      if (stored.length > 0) await append(trx, workflowId, start, first, state, stored);
      if (processed.length > 0) await trx.insertInto('processed_commands').values(processed).execute();
      committed = { version, state, wrote: stored.length > 0 };
      return out;
    });
    if (committed) {
      remember(workflowId, committed.version, committed.state);
      if (committed.wrote) deps.afterCommit?.();
    }
    return outcomes;
  }

  const batcher = createKeyedBatcher(commitGroup);

  return {
    /** Starts a workflow's stream with its starter block; a second start of the same id does nothing. */
    async startStream(trx: Transaction<EditorDB>, workflowId: string): Promise<boolean> {
      const inserted = await trx.insertInto('streams').values({ workflow_id: workflowId, version: 0 }).onConflict((oc) => oc.doNothing()).executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      const events = startWorkflow(deps.context(workflowId));
      await append(trx, workflowId, 0, undefined, replay(events), toStored(events, 0));
      return true;
    },

    /** Applies a batch of commands atomically (see the issue: stale version → 409, repeated id → first answer). */
    execute(workflowId: string, commands: Command[], opts: ExecuteOptions = {}): Promise<CommandResult> {
      return batcher.submit(workflowId, { commands, opts });
    },

    /** The read model of one workflow, or undefined when its stream has not started. */
    readState(workflowId: string): Promise<StateRow | undefined> {
      return readWorkflowState(db, workflowId);
    },

    readStates(workflowIds: string[]): Promise<Map<string, StateRow>> {
      return readWorkflowStates(db, workflowIds);
    },

    readVariables(workflowId: string) {
      return readVariables(db, workflowId);
    },

    /** The full state (with history) at the stream's head, from the cache or snapshot + tail. */
    async current(workflowId: string): Promise<{ version: number; state: WorkflowState } | undefined> {
      const stream = await db.selectFrom('streams').select('version').where('workflow_id', '=', workflowId).executeTakeFirst();
      if (!stream) return undefined;
      const cached = cache.get(workflowId);
      if (cached && cached.version === Number(stream.version)) return cached;
      const loaded = await loadFromStore(db, workflowId);
      remember(workflowId, loaded.version, loaded.state);
      return loaded;
    },

    /** The full state replayed from the store, bypassing the cache; used by tests. */
    async loadFull(workflowId: string): Promise<WorkflowState | undefined> {
      const stream = await db.selectFrom('streams').select('version').where('workflow_id', '=', workflowId).executeTakeFirst();
      if (!stream) return undefined;
      return (await loadFromStore(db, workflowId)).state;
    },

    /** Stored events with a version above `after`, in order. */
    async eventsAfter(workflowId: string, after: number, limit: number): Promise<{ head: number; events: StoredEvent[] } | undefined> {
      const stream = await db.selectFrom('streams').select('version').where('workflow_id', '=', workflowId).executeTakeFirst();
      if (!stream) return undefined;
      const rows = await db
        .selectFrom('events')
        .select(['version', 'type', 'data', 'occurred_at'])
        .where('workflow_id', '=', workflowId)
        .where('version', '>', after)
        .orderBy('version')
        .limit(limit)
        .execute();
      const events = rows.map((r) => ({ version: Number(r.version), type: r.type as StoredEvent['type'], data: r.data as WorkflowEvent, occurredAt: new Date(r.occurred_at).toISOString() }));
      return { head: Math.max(Number(stream.version), events.at(-1)?.version ?? 0), events };
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
