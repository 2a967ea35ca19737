/**
 * Groups work per key: while one group of a key is being processed, later items of that key queue
 * and are handed over together as the next group (group commit). Keys never wait for each other.
 */
export interface KeyedBatcher<T, R> {
  submit(key: string, item: T): Promise<R>;
}

/** An item's outcome inside a group: its answer or its own refusal. */
export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

interface Queued<T, R> {
  item: T;
  resolve(value: R): void;
  reject(error: unknown): void;
}

/**
 * `process` answers one outcome per item, in order; when it throws, every item of the group fails
 * with that error.
 */
export function createKeyedBatcher<T, R>(process: (key: string, items: T[]) => Promise<Array<Outcome<R>>>, maxGroup = 100): KeyedBatcher<T, R> {
  const queues = new Map<string, Array<Queued<T, R>>>();

  async function drain(key: string, queue: Array<Queued<T, R>>): Promise<void> {
    while (queue.length > 0) {
      const group = queue.splice(0, maxGroup);
      try {
        const outcomes = await process(
          key,
          group.map((q) => q.item),
        );
        group.forEach((q, i) => {
          const outcome = outcomes[i];
          if (outcome === undefined) q.reject(new Error('No outcome for a queued item'));
          else if (outcome.ok) q.resolve(outcome.value);
          else q.reject(outcome.error);
        });
      } catch (error) {
        for (const q of group) q.reject(error);
      }
    }
    queues.delete(key);
  }

  return {
    submit(key, item) {
      return new Promise<R>((resolve, reject) => {
        const existing = queues.get(key);
        if (existing) {
          existing.push({ item, resolve, reject });
          return;
        }
        const queue = [{ item, resolve, reject }];
        queues.set(key, queue);
        void drain(key, queue);
      });
    },
  };
}
