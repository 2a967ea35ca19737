import type { NatsConnection, Subscription } from 'nats';

/**
 * Core NATS subject that says "run <id> has a new event" (no payload). Readers of the run's event
 * log (SSE streams) watch it to wake at once; it sits outside every JetStream stream's subjects
 * (`<instance>.<service>.>`), so the wake-ups are not stored — the events themselves are in Postgres.
 */
export function runLiveSubject(instance: string, executionId: string): string {
  return `${instance}.live.run.${executionId}`;
}

/** A watch on one run's wake-ups, opened before reading so an event committed meanwhile is not missed. */
export interface RunWatch {
  /** Resolves true on a wake-up after the watch opened (or since the last call), false after `timeoutMs` or on close. */
  next(timeoutMs: number): Promise<boolean>;
  close(): void;
}

export interface RunLive {
  /** Tells every reader of the run that it has new events (call after the commit). */
  notify(executionId: string): void;
  watch(executionId: string): RunWatch;
}

/** Wake-ups over core NATS. */
export function createRunLive(nc: NatsConnection, instance: string): RunLive {
  return {
    notify(executionId) {
      if (!nc.isClosed()) nc.publish(runLiveSubject(instance, executionId));
    },
    watch(executionId) {
      let pending = false;
      let wake: ((woken: boolean) => void) | undefined;
      const sub: Subscription = nc.subscribe(runLiveSubject(instance, executionId), {
        callback: () => {
          if (wake) wake(true);
          else pending = true;
        },
      });
      return {
        async next(timeoutMs) {
          if (pending) {
            pending = false;
            return true;
          }
          return new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => done(false), timeoutMs);
            const done = (woken: boolean) => {
              clearTimeout(timer);
              wake = undefined;
              resolve(woken);
            };
            wake = done;
          });
        },
        close() {
          sub.unsubscribe();
          wake?.(false);
        },
      };
    },
  };
}
