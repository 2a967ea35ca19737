import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { AppError, createCallCoalescer, createEnvelope, outboxInsert } from '@weft/platform';
import { decideAndApply, decodeSnapshot, encodeSnapshot, graphFingerprint, initialState, isKnownEvent, replay, startWorkflow, type Command, type DecideContext, type DeployedState, type WorkflowEvent, type WorkflowState } from '@weft/workflow';
import type { EditorDB } from '../db.js';
import { readVariables, readWorkflowState, readWorkflowStates, workflowStateWrites, type StateRow } from '../projections/workflowState/workflowState.projection.js';
import { createKeyedBatcher, type Outcome } from './batcher.js';

/**
 * A snapshot is taken whenever a stream crosses a multiple of this many events. A snapshot of a
 * large workflow costs far more to write than events cost to replay (a 200-block workflow: ~10 ms
 * of Postgres time per snapshot, ~30 µs per replayed move), so loading from the last snapshot
 * replays at most this many events, some tens of milliseconds, and only on a cold load.
 */
export const SNAPSHOT_EVERY = 1_000;

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
  /** The stored blocks of the workflow a replaceState copies (DecideContext.copiedState), read from this store. */
  copiedState?: DecideContext['copiedState'];
  /** The workflow's own stored blocks at the versions its replaceState commands restore (DecideContext.restoredStates). */
  restoredStates?: DecideContext['restoredStates'];
}

export interface EventStoreDeps {
  db: Kysely<EditorDB>;
  instance: string;
  /** Builds the decide context for one call (clock, ids, catalogue). */
  context(workflowId: string): DecideContext;
  /** Called after a transaction that wrote events commits (the service wakes its outbox relay). */
  afterCommit?: () => void;
  /** Told about failures of work done after the answer (snapshots); they never fail a command. */
  onBackgroundError?: (err: unknown) => void;
  /** SNAPSHOT_EVERY unless given (tests take snapshots sooner). */
  snapshotEvery?: number;
  /** Told when a workflow's stored events include a type this build does not know (the load is refused). */
  onUnknownEvent?: (event: { workflowId: string; version: number; type: string }) => void;
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

interface Pending {
  commands: Command[];
  opts: ExecuteOptions;
}

/** What deciding a group produced: one outcome per command and the rows to write. */
interface Decided {
  outcomes: Array<Outcome<CommandResult>>;
  state: WorkflowState;
  version: number;
  stored: StoredEvent[];
  /** Per stored event, the graphFingerprint of the state its command left (published, not stored). */
  fingerprints: string[];
  processed: Array<{ command_id: string; result: CommandResult }>;
}

/** One workflow's write: its events after `before`, the read model from `prev` to `next`, command ids. */
interface Append {
  workflowId: string;
  before: number;
  prev: WorkflowState | undefined;
  next: WorkflowState;
  stored: StoredEvent[];
  fingerprints: string[];
  processed: Decided['processed'];
}

/** Whether an append applied, or what it failed with. */
interface AppendResult {
  applied: boolean;
  error?: unknown;
}

/**
 * Serializes starting and dropping one workflow's stream (until the transaction ends), so a start
 * that checked for a tombstone cannot commit a stream beside a concurrent drop's tombstone.
 */
async function lockWorkflow(trx: Transaction<EditorDB>, workflowId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`editor-stream:${workflowId}`}))`.execute(trx);
}

/** Postgres refused a duplicate key: another writer got there first. */
function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}

/**
 * The editor's event store: streams of editing events per workflow, a read model updated in the
 * same transaction, snapshots every `snapshotEvery` events, command ids for idempotency, and the
 * outbox row that publishes each event. Concurrent commands on one workflow are committed together
 * (one transaction, one lock) while each keeps its own answer.
 */
export function createEventStore(deps: EventStoreDeps) {
  const { db, instance } = deps;
  const snapshotEvery = deps.snapshotEvery ?? SNAPSHOT_EVERY;
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

  /**
   * Latest snapshot plus the events after it, and the version that makes; with `upTo`, the state at
   * that version (the snapshot only when it is not past it, else a replay from the start).
   */
  async function loadFromStore(trx: Kysely<EditorDB>, workflowId: string, upTo?: number): Promise<{ version: number; state: WorkflowState }> {
    const snap = await trx
      .selectFrom('snapshots')
      .select(['version', 'state'])
      .where('workflow_id', '=', workflowId)
      .$if(upTo !== undefined, (q) => q.where('version', '<=', upTo ?? 0))
      .executeTakeFirst();
    const from = snap ? Number(snap.version) : 0;
    const rows = await trx
      .selectFrom('events')
      .select(['version', 'type', 'data'])
      .where('workflow_id', '=', workflowId)
      .where('version', '>', from)
      .$if(upTo !== undefined, (q) => q.where('version', '<=', upTo ?? 0))
      .orderBy('version')
      .execute();
    // A newer editor (during a deploy) may have stored types this build cannot fold: refuse rather
    // than replay past them, which would decide and project edits on a state missing one.
    const unknown = rows.find((r) => !isKnownEvent(r.data));
    if (unknown) {
      const found = { workflowId, version: Number(unknown.version), type: unknown.type };
      deps.onUnknownEvent?.(found);
      throw new AppError('unavailable', `Workflow ${workflowId} has an event this editor does not know (${found.type}, version ${found.version}); a newer Weft wrote it`, found);
    }
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

  /**
   * The parts of one writable CTE that append the events, move the read model from `prev` to `next`,
   * record command ids and write the outbox rows, applied only while the stream is still at
   * `before`. `tag` suffixes the CTE names so several appends can share a statement; the part named
   * `s<tag>` answers the stream's row only when the append applies.
   */
  function appendParts(tag: string, { workflowId, before, prev, next, stored, fingerprints, processed }: Append): RawBuilder<unknown>[] {
    const version = before + stored.length;
    const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;
    const s = sql.raw(`s${tag}`);
    const name = (base: string) => sql.raw(`${base}${tag}`);
    const envelopes = stored.map((e, i) => createEnvelope(editorSubject(instance, workflowId), e.type, { workflowId, ...e, fingerprint: fingerprints[i] }));
    return [
      sql`${s} as (update streams set version = ${version}, updated_at = now() where workflow_id = ${workflowId} and version = ${before} returning workflow_id)`,
      ...(stored.length === 0
        ? []
        : [
            sql`${name('ev')} as (insert into events (workflow_id, version, type, data, occurred_at)
              select ${s}.workflow_id, x.version, x.type, x.data, x.occurred_at from ${s},
              jsonb_to_recordset(${json(stored.map((e) => ({ version: e.version, type: e.type, data: e.data, occurred_at: e.occurredAt })))}) as x(version bigint, type text, data jsonb, occurred_at timestamptz))`,
            ...workflowStateWrites(version, prev, next, tag),
            sql`${name('ob')} as (${outboxInsert(envelopes, s)})`,
          ]),
      ...(processed.length === 0
        ? []
        : [
            sql`${name('pc')} as (insert into processed_commands (workflow_id, command_id, result)
              select ${s}.workflow_id, x.command_id, x.result from ${s}, jsonb_to_recordset(${json(processed)}) as x(command_id text, result jsonb))`,
          ]),
    ];
  }

  /** Runs appends (of different workflows) as ONE statement; answers, per append, whether it applied. */
  async function appendAll(executor: Kysely<EditorDB>, appends: Append[]): Promise<boolean[]> {
    const tags = appends.map((_, i) => (appends.length === 1 ? '' : `_${i}`));
    const parts = appends.flatMap((a, i) => appendParts(tags[i] ?? '', a));
    const applied = sql.join(
      tags.map((tag, i) => sql`select ${sql.lit(i)}::int as i from ${sql.raw(`s${tag}`)}`),
      sql` union all `,
    );
    const res = await sql<{ i: number }>`with ${sql.join(parts)} ${applied}`.execute(executor);
    const won = new Set(res.rows.map((r) => r.i));
    return appends.map((_, i) => won.has(i));
  }

  /** One append in its own statement (the locked path, and a shared statement that failed). */
  async function append(executor: Kysely<EditorDB>, a: Append): Promise<boolean> {
    return (await appendAll(executor, [a]))[0] ?? false;
  }

  /**
   * Appends on the fast path that are ready in the same turn share one statement, and so one commit:
   * with many workflows edited at once (one group each), that is one round trip instead of one per
   * workflow. A shared statement that fails (a duplicate command id, say) is retried one append at a
   * time, so each append meets only its own failure, as thrown.
   */
  const appendSoon = createCallCoalescer<Append, AppendResult>(async (calls) => {
    const appends = calls.map((c) => c.request);
    try {
      return (await appendAll(db, appends)).map((applied) => ({ ok: { applied } }));
    } catch (err) {
      if (appends.length === 1) return [{ ok: { applied: false, error: err } }];
      return Promise.all(appends.map(async (a) => ({ ok: await append(db, a).then((applied) => ({ applied }), (error: unknown) => ({ applied: false, error })) })));
    }
  });

  function toStored(events: WorkflowEvent[], before: number): StoredEvent[] {
    const occurredAt = new Date().toISOString();
    return events.map((e, i) => ({ version: before + i + 1, type: e.type, data: e, occurredAt }));
  }

  /** Decides a group in order, each command on the state the previous ones left; `done` holds answered command ids. */
  function decideGroup(workflowId: string, state: WorkflowState, start: number, group: Pending[], done: Map<string, CommandResult>): Decided {
    const decided: Decided = { outcomes: [], state, version: start, stored: [], fingerprints: [], processed: [] };
    for (const { commands, opts } of group) {
      const prior = opts.commandId ? done.get(opts.commandId) : undefined;
      if (prior) {
        decided.outcomes.push({ ok: true, value: prior });
        continue;
      }
      if (opts.expectedVersion !== undefined && opts.expectedVersion !== decided.version) {
        const current = decided.version;
        decided.outcomes.push({ ok: false, error: new AppError('conflict', `Version conflict: expected ${opts.expectedVersion}, current is ${current}`, { currentVersion: current }) });
        continue;
      }
      let events: WorkflowEvent[];
      let next: WorkflowState;
      try {
        const ctx = deps.context(workflowId);
        const given = {
          ...(opts.deployedState ? { deployedState: opts.deployedState } : {}),
          ...(opts.copiedState ? { copiedState: opts.copiedState } : {}),
          ...(opts.restoredStates ? { restoredStates: opts.restoredStates } : {}),
        };
        ({ events, state: next } = decideAndApply(decided.state, commands, { ...ctx, ...given }));
      } catch (error) {
        decided.outcomes.push({ ok: false, error });
        continue;
      }
      const mine = toStored(events, decided.version);
      decided.state = next;
      decided.version += events.length;
      decided.stored.push(...mine);
      // One per command (cached per block, so ~20 µs on a 200-block workflow): its events share it.
      const fingerprint = graphFingerprint(next);
      for (let i = 0; i < mine.length; i++) decided.fingerprints.push(fingerprint);
      const result: CommandResult = { version: decided.version, events: mine };
      if (opts.commandId) {
        done.set(opts.commandId, result);
        decided.processed.push({ command_id: opts.commandId, result });
      }
      decided.outcomes.push({ ok: true, value: result });
    }
    return decided;
  }

  let snapshotting: Promise<void> = Promise.resolve();
  let closing = false;

  /** Snapshots are for cold loads only, so they are written after the answer, never in its way. */
  function snapshotLater(workflowId: string, version: number, state: WorkflowState): void {
    if (closing) return; // a skipped snapshot only means a longer replay on the next cold load
    snapshotting = snapshotting.then(async () => {
      try {
        const snapshot = JSON.stringify(encodeSnapshot(state));
        await db
          .insertInto('snapshots')
          .values({ workflow_id: workflowId, version, state: snapshot })
          .onConflict((oc) => oc.column('workflow_id').doUpdateSet({ version, state: snapshot, taken_at: new Date() }).where('snapshots.version', '<', version))
          .execute();
      } catch (err) {
        deps.onBackgroundError?.(err);
      }
    });
  }

  function committed(workflowId: string, before: number, decided: Decided): Array<Outcome<CommandResult>> {
    remember(workflowId, decided.version, decided.state);
    if (decided.stored.length > 0) {
      deps.afterCommit?.();
      if (Math.floor(decided.version / snapshotEvery) > Math.floor(before / snapshotEvery)) snapshotLater(workflowId, decided.version, decided.state);
    }
    return decided.outcomes;
  }

  /**
   * One write for a group of commands on one workflow. Fast path: decide on the cached state and
   * append in one statement guarded by the stream version. When the cache may be stale, a command
   * was refused (it might not be on the current state) or a command id may repeat, the slow path
   * locks the stream, reads the command ids and the state, and decides again.
   */
  async function commitGroup(workflowId: string, group: Pending[]): Promise<Array<Outcome<CommandResult>>> {
    const cached = cache.get(workflowId);
    if (cached) {
      const decided = decideGroup(workflowId, cached.state, cached.version, group, new Map());
      if (decided.stored.length > 0 && decided.outcomes.every((o) => o.ok)) {
        const result = await appendSoon({ workflowId, before: cached.version, prev: cached.state, next: decided.state, stored: decided.stored, fingerprints: decided.fingerprints, processed: decided.processed });
        if (result.applied) return committed(workflowId, cached.version, decided);
        if (result.error !== undefined && !isUniqueViolation(result.error)) throw result.error;
      }
    }
    let result: { before: number; decided: Decided } | undefined;
    await db.transaction().execute(async (trx) => {
      const stream = await trx.selectFrom('streams').select('version').where('workflow_id', '=', workflowId).forUpdate().executeTakeFirst();
      if (!stream) throw new AppError('not_found', `Workflow ${workflowId} not found`);
      const before = Number(stream.version);
      const ids = group.flatMap((p) => (p.opts.commandId ? [p.opts.commandId] : []));
      const done = new Map<string, CommandResult>();
      if (ids.length > 0) {
        const rows = await trx.selectFrom('processed_commands').select(['command_id', 'result']).where('workflow_id', '=', workflowId).where('command_id', 'in', ids).execute();
        for (const r of rows) done.set(r.command_id, r.result as CommandResult);
      }
      const state = await load(trx, workflowId, before);
      const decided = decideGroup(workflowId, state, before, group, done);
      if (decided.stored.length > 0 || decided.processed.length > 0) {
        if (!(await append(trx, { workflowId, before, prev: state, next: decided.state, stored: decided.stored, fingerprints: decided.fingerprints, processed: decided.processed }))) throw new Error('The locked stream moved');
      }
      result = { before, decided };
    });
    if (!result) throw new Error('The transaction answered nothing');
    return committed(workflowId, result.before, result.decided);
  }

  const batcher = createKeyedBatcher(commitGroup);

  async function current(workflowId: string): Promise<{ version: number; state: WorkflowState } | undefined> {
    const stream = await db.selectFrom('streams').select('version').where('workflow_id', '=', workflowId).executeTakeFirst();
    if (!stream) return undefined;
    const cached = cache.get(workflowId);
    if (cached && cached.version === Number(stream.version)) return cached;
    const loaded = await loadFromStore(db, workflowId);
    remember(workflowId, loaded.version, loaded.state);
    return loaded;
  }

  return {
    /**
     * Starts a workflow's stream with its starter block; a second start of the same id, and a start
     * of a deleted workflow, do nothing (answers whether it started one). The event consumer and the
     * catch-up both start streams here, so whichever comes second is a no-op.
     */
    async startStream(trx: Transaction<EditorDB>, workflowId: string): Promise<boolean> {
      await lockWorkflow(trx, workflowId);
      const deleted = await trx.selectFrom('deleted_workflows').select('workflow_id').where('workflow_id', '=', workflowId).executeTakeFirst();
      if (deleted) return false;
      const inserted = await trx.insertInto('streams').values({ workflow_id: workflowId, version: 0 }).onConflict((oc) => oc.doNothing()).executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      const events = startWorkflow(deps.context(workflowId));
      const next = replay(events);
      const fingerprint = graphFingerprint(next);
      await append(trx, { workflowId, before: 0, prev: undefined, next, stored: toStored(events, 0), fingerprints: events.map(() => fingerprint), processed: [] });
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
    current,

    /**
     * The state at `version` (a duplicate's copy is checked against the source as the registry read
     * it): the head's from the cache when it is that version, else replayed up to it. `state` is
     * undefined when the stream has no such version; `head` is its version now.
     */
    async stateAt(workflowId: string, version: number): Promise<{ head: number; state: WorkflowState | undefined } | undefined> {
      const found = await current(workflowId);
      if (!found) return undefined;
      if (version === found.version) return { head: found.version, state: found.state };
      if (!Number.isSafeInteger(version) || version < 1 || version > found.version) return { head: found.version, state: undefined };
      return { head: found.version, state: (await loadFromStore(db, workflowId, version)).state };
    },

    /**
     * A stream's version and whether it is still as started: no event but its workflowStarted, so
     * nothing was ever saved into it (a duplicate's copy is filled in only then).
     */
    async untouched(workflowId: string): Promise<{ version: number; untouched: boolean } | undefined> {
      const stream = await db.selectFrom('streams').select('version').where('workflow_id', '=', workflowId).executeTakeFirst();
      if (!stream) return undefined;
      const other = await db.selectFrom('events').select('version').where('workflow_id', '=', workflowId).where('type', '<>', 'workflowStarted').limit(1).executeTakeFirst();
      return { version: Number(stream.version), untouched: other === undefined };
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

    /** Drops a workflow's stream and everything projected from it, and remembers it as deleted. */
    async dropStream(trx: Transaction<EditorDB>, workflowId: string): Promise<void> {
      await lockWorkflow(trx, workflowId);
      await trx.insertInto('deleted_workflows').values({ workflow_id: workflowId }).onConflict((oc) => oc.doNothing()).execute();
      await trx.deleteFrom('streams').where('workflow_id', '=', workflowId).execute();
      cache.delete(workflowId);
    },

    /** Test hook: waits for the snapshots scheduled so far. */
    flushSnapshots(): Promise<void> {
      return snapshotting;
    },

    /** On shutdown, before the database closes: schedules no more snapshots and waits for the pending ones. */
    close(): Promise<void> {
      closing = true;
      return snapshotting;
    },

    /** Test hook: forget cached states so the next command loads from snapshot + tail. */
    clearCache(): void {
      cache.clear();
    },
  };
}

export type EventStore = ReturnType<typeof createEventStore>;
