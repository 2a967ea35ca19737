import type { Kysely } from 'kysely';
import { AppError } from '@weft/platform';
import type { EditorDB } from '../db.js';
import type { EventStore } from '../store/eventStore.js';

/** What the editor asks the registry about workflows it has not heard of (gRPC in production). */
export interface RegistryPort {
  /** Which of these workflow ids the registry has now. */
  existing(workflowIds: string[]): Promise<Set<string>>;
  /** The workflow the registry records this one as a duplicate of, if it is one (issue 14). */
  copiedFrom(workflowId: string): Promise<string | undefined>;
}

/**
 * Starting and dropping workflow streams outside the event consumer, so an answer of the registry
 * holds in the editor at once (issue 9). Registry events stay the way the editor learns of
 * workflows; these paths only get there first, through the same `startStream` and `dropStream`, so
 * the event that arrives later changes nothing.
 */
export interface StreamLifecycle {
  /**
   * The ids among `workflowIds` that have a stream now. A workflow without one that the registry
   * knows (its workflowCreated event is still on its way) gets its stream started here; one the
   * registry does not know, or that was deleted, has none.
   */
  ensure(workflowIds: string[]): Promise<Set<string>>;
  /** Drops the streams of deleted workflows and remembers them as deleted (idempotent). */
  drop(workflowIds: string[]): Promise<void>;
}

export function createStreamLifecycle(deps: { db: Kysely<EditorDB>; store: EventStore; registry: RegistryPort; afterCommit?: () => void }): StreamLifecycle {
  const { db, store } = deps;
  // One catch-up at a time per workflow in this process; concurrent callers share its answer.
  const inFlight = new Map<string, Promise<boolean>>();

  async function withStream(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await db.selectFrom('streams').select('workflow_id').where('workflow_id', 'in', ids).execute();
    return new Set(rows.map((r) => r.workflow_id));
  }

  async function catchUp(ids: string[]): Promise<Set<string>> {
    const deleted = await db.selectFrom('deleted_workflows').select('workflow_id').where('workflow_id', 'in', ids).execute();
    const gone = new Set(deleted.map((r) => r.workflow_id));
    const candidates = ids.filter((id) => !gone.has(id));
    const known = candidates.length > 0 ? await deps.registry.existing(candidates) : new Set<string>();
    let started = false;
    for (const id of candidates) {
      if (!known.has(id)) continue;
      if (await db.transaction().execute((trx) => store.startStream(trx, id))) started = true;
    }
    if (started) deps.afterCommit?.();
    // Read again: the event consumer may have started a stream meanwhile, or a delete dropped one.
    return withStream(ids);
  }

  return {
    async ensure(workflowIds) {
      const ids = [...new Set(workflowIds)];
      const have = await withStream(ids);
      const missing = ids.filter((id) => !have.has(id));
      if (missing.length === 0) return have;
      const fresh = missing.filter((id) => !inFlight.has(id));
      if (fresh.length > 0) {
        const asked = catchUp(fresh);
        for (const id of fresh) {
          const one = asked.then((found) => found.has(id));
          inFlight.set(id, one);
          void one.then(
            () => inFlight.delete(id),
            () => inFlight.delete(id),
          );
        }
      }
      const answers = await Promise.all(missing.map(async (id) => [id, await (inFlight.get(id) ?? Promise.resolve(false))] as const));
      for (const [id, found] of answers) if (found) have.add(id);
      return have;
    },

    async drop(workflowIds) {
      for (const id of new Set(workflowIds)) {
        if (!id) throw new AppError('validation', 'workflowIds must not contain an empty id');
        await db.transaction().execute((trx) => store.dropStream(trx, id));
      }
    },
  };
}
