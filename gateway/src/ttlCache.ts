/**
 * A bounded map whose entries expire `ttlMs` after they were set. When full, the oldest entry goes
 * first (Map keeps insertion order). `clock` is injectable for tests.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();
  /** Counts clear()s, so an answer looked up before one is not remembered after it. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly clock: () => number = Date.now,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.clock()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt: this.clock() + this.ttlMs });
  }

  /**
   * The remembered value of `key`, or `load`'s answer, remembered unless it is undefined or the
   * cache was cleared while `load` ran (what it read may be what the clear was about).
   */
  async remember(key: K, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const known = this.get(key);
    if (known !== undefined) return known;
    const asked = this.generation;
    const value = await load();
    if (value !== undefined && asked === this.generation) this.set(key, value);
    return value;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
