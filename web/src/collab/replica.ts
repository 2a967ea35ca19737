import { decideBatch, evolve, isKnownEvent, WorkflowError, type Command, type DecideContext, type WorkflowEvent, type WorkflowState } from '@weft/workflow';

/** One stored event as the gateway sends it: in command answers, JSON pages and the SSE stream. */
export interface StoredEvent {
  version: number;
  type: string;
  data: WorkflowEvent;
  occurredAt?: string;
}

/** A local edit the server has not folded into the confirmed state yet; `ackedAt` is the server version after it, once answered. */
export interface PendingEdit {
  commandId: string;
  commands: Command[];
  ackedAt?: number;
}

/**
 * What one browser knows of a workflow: the confirmed state at `version` (the server's events folded
 * in order), events received beyond it that cannot be folded yet, and the local edits on top.
 */
export interface Replica {
  state: WorkflowState;
  version: number;
  received: ReadonlyMap<number, StoredEvent>;
  pending: readonly PendingEdit[];
  /**
   * The next event to fold when this bundle does not know its type (a newer Weft wrote it): folding
   * stops before it, since a state that skipped an edit is no longer the server's; the session loads
   * the state again instead.
   */
  unknown?: { version: number; type: string };
}

/** A replica confirmed at `version` with nothing pending. */
export function replicaAt(state: WorkflowState, version: number): Replica {
  return { state, version, received: new Map(), pending: [] };
}

/**
 * Adds events (ones already folded or already received are ignored) and folds the contiguous run
 * after the confirmed version, up to `limit` and up to an event of a type this bundle does not know
 * (named in `unknown`); answered edits whose events are all folded leave the queue.
 */
export function receive(replica: Replica, events: readonly StoredEvent[], limit = Number.POSITIVE_INFINITY): Replica {
  const received = new Map(replica.received);
  for (const event of events) if (event.version > replica.version && !received.has(event.version)) received.set(event.version, event);
  let { state, version } = replica;
  let unknown: Replica['unknown'];
  for (let next = received.get(version + 1); next !== undefined && next.version <= limit; next = received.get(version + 1)) {
    if (!isKnownEvent(next.data)) {
      unknown = { version: next.version, type: typeName(next) };
      break;
    }
    state = evolve(state, next.data);
    version = next.version;
    received.delete(version);
  }
  const pending = replica.pending.filter((edit) => edit.ackedAt === undefined || edit.ackedAt > version);
  return { state, version, received, pending, ...(unknown ? { unknown } : {}) };
}

/** The type a stored event names, for messages (its data may be anything a newer Weft sends). */
function typeName(event: StoredEvent): string {
  const data: unknown = event.data;
  return typeof data === 'object' && data !== null && 'type' in data && typeof data.type === 'string' ? data.type : String(event.type);
}

/**
 * The replica moved to a state the server answered in full (the one a fresh page load starts from):
 * events received beyond it are kept and folded on top, edits it already includes leave the queue.
 */
export function resynced(replica: Replica, state: WorkflowState, version: number, limit = Number.POSITIVE_INFINITY): Replica {
  const later = [...replica.received.values()].filter((event) => event.version > version);
  return receive({ state, version, received: new Map(), pending: replica.pending }, later, limit);
}

/** The queue with one edit replaced (or removed when `by` is undefined). */
export function replacePending(replica: Replica, commandId: string, by: PendingEdit | undefined): Replica {
  const pending = replica.pending.flatMap((edit) => (edit.commandId !== commandId ? [edit] : by ? [by] : []));
  return { ...replica, pending };
}

/** The newest server version this replica knows of: folded, or reported by an answer to one of its edits. */
export function knownHead(replica: Replica): number {
  return Math.max(replica.version, ...replica.pending.map((edit) => edit.ackedAt ?? 0));
}

/** An edit that no longer applies to the state under it, and why. */
export interface StaleEdit {
  edit: PendingEdit;
  message: string;
}

/**
 * What to show: the confirmed state with every pending edit decided again on top, in order (the
 * server decides them on its newest state too). Edits that are refused now are left out and listed.
 */
export function project(replica: Replica, ctx: DecideContext): { state: WorkflowState; stale: StaleEdit[] } {
  let state = replica.state;
  const stale: StaleEdit[] = [];
  for (const edit of replica.pending) {
    try {
      state = decideBatch(state, edit.commands, ctx).reduce(evolve, state);
    } catch (error) {
      if (!(error instanceof WorkflowError)) throw error;
      stale.push({ edit, message: error.message });
    }
  }
  return { state, stale };
}
