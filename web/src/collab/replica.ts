import { decideBatch, evolve, WorkflowError, type Command, type DecideContext, type WorkflowEvent, type WorkflowState } from '@weft/workflow';

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
}

/** A replica confirmed at `version` with nothing pending. */
export function replicaAt(state: WorkflowState, version: number): Replica {
  return { state, version, received: new Map(), pending: [] };
}

/**
 * Adds events (ones already folded or already received are ignored) and folds the contiguous run
 * after the confirmed version, up to `limit`; answered edits whose events are all folded leave the queue.
 */
export function receive(replica: Replica, events: readonly StoredEvent[], limit = Number.POSITIVE_INFINITY): Replica {
  const received = new Map(replica.received);
  for (const event of events) if (event.version > replica.version && !received.has(event.version)) received.set(event.version, event);
  let { state, version } = replica;
  for (let next = received.get(version + 1); next !== undefined && next.version <= limit; next = received.get(version + 1)) {
    state = evolve(state, next.data);
    version = next.version;
    received.delete(version);
  }
  const pending = replica.pending.filter((edit) => edit.ackedAt === undefined || edit.ackedAt > version);
  return { state, version, received, pending };
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
