import { decideBatch, initialState, WorkflowError, type Command, type DecideContext, type WorkflowState } from '@weft/workflow';
import { knownHead, project, receive, replacePending, replicaAt, resynced, type PendingEdit, type StoredEvent } from './replica';

/** How the server answered one batch of commands. */
export type CommandAnswer =
  | { kind: 'applied'; version: number; events: StoredEvent[] }
  | { kind: 'conflict'; message: string }
  | { kind: 'refused'; message: string; statusText?: string };

/** The server as a session needs it; `send` throws only when the outcome is unknown (network, 5xx). */
export interface Transport {
  /** The full state, undo history included, at the version it answers; a session starts there. */
  fullState(): Promise<{ version: number; state: WorkflowState }>;
  /** Every stored event after `after`, in version order. */
  eventsAfter(after: number): Promise<StoredEvent[]>;
  send(request: { commands: Command[]; expectedVersion: number; commandId: string }): Promise<CommandAnswer>;
}

/** What the canvas shows of a session. */
export interface SessionSnapshot {
  status: 'loading' | 'ready' | 'failed';
  /** The confirmed state with the pending edits on top. */
  state: WorkflowState;
  /** The server version the confirmed state is at. */
  version: number;
  pending: number;
  /** The last refusal or failure, for the user. */
  message: string | null;
  /** Why the state did not load (status `failed`): the error the transport threw. */
  loadError?: unknown;
  /**
   * The server sent an event of a type this bundle does not know: a newer Weft is deployed. The
   * session loaded the state again rather than fold it; the page should be reloaded for the new version.
   */
  outdated: boolean;
}

/** One browser's editing session on one workflow (framework-free; `useWorkflowSession` adapts it to React). */
export interface WorkflowSession {
  load(): Promise<void>;
  /** Applies an edit at once and queues it for the server; answers the refusal message when the edit does not apply. */
  edit(commands: Command[]): string | null;
  /** Events from the live stream, in version order. */
  receiveLive(events: readonly StoredEvent[]): void;
  version(): number;
  /** Edits the server has not answered yet (unsent or in flight): a reload now would lose them. */
  unsaved(): number;
  /** Edits not on their way to the server yet (queued behind the one in flight): leaving the page now loses them for sure. */
  unsent(): number;
  snapshot(): SessionSnapshot;
  subscribe(listener: () => void): () => void;
  dismissMessage(): void;
  dispose(): void;
}

export interface SessionDeps {
  transport: Transport;
  context: () => DecideContext;
  newId: () => string;
  /** Wait between attempts when the server could not be reached. */
  retryDelayMs?: number;
  /** Attempts per edit, for unreachable servers and for version conflicts each. */
  maxAttempts?: number;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const VARIABLE_COMMANDS: ReadonlySet<Command['type']> = new Set(['addVariable', 'updateVariable', 'deleteVariable', 'duplicateVariable']);

/**
 * What the user is told when an edit is not saved. The workflow's variables are saved as commands on
 * the workflow (not a store of their own), so an edit of them that the server refuses or that cannot
 * reach it says so in spec 000 §8's words, `Failed to save workflow variables: {statusText}`.
 */
export function unsavedMessage(commands: readonly Command[], failure: { statusText?: string; message: string }, fallback: string): string {
  if (!commands.some((c) => VARIABLE_COMMANDS.has(c.type))) return fallback;
  return `Failed to save workflow variables: ${failure.statusText || failure.message}`;
}

/** The status text of a failed call (an HTTP error's), if it has one. */
function statusTextOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'statusText' in error && typeof error.statusText === 'string' ? error.statusText : undefined;
}

/**
 * What the user is told when the workflow's state does not load. The variables come with the state,
 * so this is spec 000 §8's variable load failure: 'You do not have permission to access these
 * variables' on a 401 or 403 (spec 000 §6/§7: either means no permission), else `Failed to load workflow variables: {statusText}`.
 */
export function unloadedMessage(error: unknown): string {
  const status = typeof error === 'object' && error !== null && 'status' in error ? error.status : undefined;
  if (status === 401 || status === 403) return 'You do not have permission to access these variables';
  return `Failed to load workflow variables: ${statusTextOf(error) || describe(error)}`;
}

/** Creates a session: optimistic edits with the shared domain code, reconciled with the server's event order. */
export function createWorkflowSession(deps: SessionDeps): WorkflowSession {
  const retryDelayMs = deps.retryDelayMs ?? 1_000;
  const maxAttempts = deps.maxAttempts ?? 5;
  const listeners = new Set<() => void>();
  let replica = replicaAt(initialState(), 0);
  let status: SessionSnapshot['status'] = 'loading';
  let message: string | null = null;
  let loadError: unknown;
  let outdated = false;
  let current: SessionSnapshot = { status, state: replica.state, version: 0, pending: 0, message, outdated };
  /** The expected version of the edit in flight: newer events may be its own, so they wait for its answer. */
  let inFlight: { commandId: string; at: number } | undefined;
  let flushing = false;
  let refetching = false;
  let resyncing = false;
  let disposed = false;

  /** Called when the edit in flight is answered (or given up on). */
  let landed: (() => void)[] = [];

  const limit = () => inFlight?.at ?? Number.POSITIVE_INFINITY;

  function land(): void {
    inFlight = undefined;
    const waiting = landed;
    landed = [];
    for (const resolve of waiting) resolve();
  }

  /** Recomputes what to show; unsent edits that no longer apply are dropped, with the reason shown. */
  function publish(): void {
    for (;;) {
      const projected = project(replica, deps.context());
      const drop = projected.stale.filter((s) => s.edit.ackedAt === undefined && s.edit.commandId !== inFlight?.commandId);
      if (drop.length === 0) {
        current = { status, state: projected.state, version: replica.version, pending: replica.pending.length, message, outdated, ...(status === 'failed' ? { loadError } : {}) };
        break;
      }
      for (const s of drop) replica = replacePending(replica, s.edit.commandId, undefined);
      message = `Your edit was dropped: ${drop[0]?.message ?? ''}`;
    }
    for (const listener of listeners) listener();
  }

  /** Folds events into the replica; one of a type this bundle does not know stops the folding and starts a resync. */
  function fold(events: readonly StoredEvent[]): void {
    replica = receive(replica, events, limit());
    if (replica.unknown !== undefined) void resync();
  }

  async function catchUp(): Promise<void> {
    const events = await deps.transport.eventsAfter(replica.version);
    // Fold into the replica as it is now: live events and answers may have arrived during the fetch.
    fold(events);
  }

  /**
   * A newer Weft wrote an event this bundle cannot fold: rather than guess, load the full state again
   * (as a fresh page load does) and go on from there; `outdated` tells the page to suggest a reload.
   * The server stores an event before sending it, so its full state normally already includes it;
   * a state that does not yet is asked for again after a pause, a few times.
   */
  async function resync(): Promise<void> {
    if (resyncing || disposed) return;
    resyncing = true;
    outdated = true;
    publish();
    try {
      for (let attempts = 1; replica.unknown !== undefined && !disposed; ) {
        // The server's state may already hold the edit in flight: take it once its answer is in.
        while (inFlight !== undefined && !disposed) await new Promise<void>((resolve) => landed.push(resolve));
        if (replica.unknown === undefined || disposed) break;
        const stuckAt = replica.unknown.version;
        const full = await deps.transport.fullState();
        // Live events and answers that arrived during the fetch are in the replica: later ones fold on top.
        if (full.version > replica.version) replica = resynced(replica, full.state, full.version, limit());
        if (replica.unknown === undefined || replica.unknown.version > stuckAt) {
          attempts = 1;
          continue;
        }
        if (++attempts > maxAttempts) {
          message = `Could not refresh the workflow: its state does not include version ${stuckAt} yet`;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
      }
    } catch (error) {
      message = `Could not refresh the workflow: ${describe(error)}`;
    } finally {
      resyncing = false;
    }
    if (!disposed) publish();
  }

  function drop(edit: PendingEdit, reason: string): void {
    replica = replacePending(replica, edit.commandId, undefined);
    message = reason;
  }

  /** Sends one edit until the server answers it: applied, refused, or (after a conflict) decided again on the newer state. */
  async function sendEdit(edit: PendingEdit): Promise<void> {
    for (let conflicts = 0, failures = 0; !disposed; ) {
      const expectedVersion = knownHead(replica);
      inFlight = { commandId: edit.commandId, at: expectedVersion };
      let answer: CommandAnswer;
      try {
        answer = await deps.transport.send({ commands: edit.commands, expectedVersion, commandId: edit.commandId });
      } catch (error) {
        // The outcome is unknown: retry with the same command id, which the server answers only once.
        if (++failures < maxAttempts) {
          await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
          continue;
        }
        land();
        drop(edit, unsavedMessage(edit.commands, { statusText: statusTextOf(error), message: describe(error) }, `Could not save your edit: ${describe(error)}`));
        await catchUp();
        return;
      }
      land();
      if (answer.kind === 'applied') {
        replica = replacePending(replica, edit.commandId, { ...edit, ackedAt: answer.version });
        fold(answer.events);
        return;
      }
      if (answer.kind === 'refused' || ++conflicts >= maxAttempts) {
        drop(edit, answer.kind === 'refused' ? unsavedMessage(edit.commands, answer, answer.message) : answer.message);
        await catchUp();
        return;
      }
      // Someone else wrote first: fold their events, then decide the edit again on top (publish drops it if it no longer applies).
      await catchUp();
      publish();
      if (!replica.pending.some((e) => e.commandId === edit.commandId)) return;
    }
  }

  /** Sends queued edits one at a time, in order. */
  async function flush(): Promise<void> {
    if (flushing) return;
    flushing = true;
    try {
      for (let edit = nextUnsent(); edit !== undefined && !disposed; edit = nextUnsent()) {
        await sendEdit(edit);
        publish();
      }
    } catch (error) {
      message = describe(error);
      publish();
    } finally {
      flushing = false;
    }
  }

  const nextUnsent = () => replica.pending.find((edit) => edit.ackedAt === undefined);

  /** A hole before the newest live event means events were missed: fetch them. */
  async function refetch(): Promise<void> {
    if (refetching) return;
    refetching = true;
    try {
      await catchUp();
    } catch (error) {
      message = `Could not refresh the workflow: ${describe(error)}`;
    } finally {
      refetching = false;
    }
    if (!disposed) publish();
  }

  return {
    async load() {
      try {
        // The history comes with the state, so later events (someone's undo too) fold onto it without replaying from 0.
        const full = await deps.transport.fullState();
        replica = replicaAt(full.state, full.version);
        status = 'ready';
      } catch (error) {
        status = 'failed';
        message = describe(error);
        loadError = error;
      }
      if (!disposed) publish();
    },
    edit(commands) {
      if (status !== 'ready') return 'The workflow is not loaded';
      try {
        decideBatch(current.state, commands, deps.context());
      } catch (error) {
        if (!(error instanceof WorkflowError)) throw error;
        message = error.message;
        publish();
        return error.message;
      }
      replica = { ...replica, pending: [...replica.pending, { commandId: deps.newId(), commands }] };
      publish();
      void flush();
      return null;
    },
    receiveLive(events) {
      if (status !== 'ready' || events.length === 0) return;
      fold(events);
      const newest = Math.max(...events.map((e) => e.version));
      // A hole to fill; not while an unknown event holds the folding up (the resync fills it).
      if (replica.unknown === undefined && replica.version < Math.min(newest, limit())) void refetch();
      publish();
    },
    version: () => replica.version,
    unsaved: () => replica.pending.filter((edit) => edit.ackedAt === undefined).length,
    unsent: () => replica.pending.filter((edit) => edit.ackedAt === undefined && edit.commandId !== inFlight?.commandId).length,
    snapshot: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dismissMessage() {
      message = null;
      publish();
    },
    dispose() {
      disposed = true;
      listeners.clear();
    },
  };
}
