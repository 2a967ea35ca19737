import { environmentCountProblem, environmentVariableProblem } from '@weft/catalog';
import { ApiError, statusTextOf } from '../api';

/** A row of the environment variables table as typed. */
export interface EnvironmentRow {
  key: string;
  value: string;
}

/** What keeps the table from being saved: a problem per row (same order; undefined when fine) and one for the whole set. */
export interface EnvironmentProblems {
  rows: Array<string | undefined>;
  all: string | undefined;
}

/**
 * The registry's checks (a name `{{KEY}}` can read, values up to 64 KB, at most 500), a key used
 * twice, and a value with no key (which saving would drop), found before saving: a refused save
 * reloads the saved variables (spec 000 §7), which would throw away every row typed.
 */
export function environmentProblems(rows: readonly EnvironmentRow[]): EnvironmentProblems {
  const seen = new Set<string>();
  const problems = rows.map(({ key, value }) => {
    const name = key.trim();
    if (name === '') return value === '' ? undefined : 'Give this value a key, or remove the row';
    if (seen.has(name)) return `The key ${name} is used twice.`;
    seen.add(name);
    return environmentVariableProblem(name, value);
  });
  return { rows: problems, all: environmentCountProblem(seen.size) };
}

/** The variables a save sends: the rows with a key, by their trimmed key. */
export function environmentToSave(rows: readonly EnvironmentRow[]): Record<string, string> {
  return Object.fromEntries(rows.filter((r) => r.key.trim() !== '').map((r) => [r.key.trim(), r.value]));
}

/**
 * A failed save's toast: spec 000 §8's 'Failed to save environment variables: {statusText}', then
 * the server's own message when it gives one ("Bad Request" alone does not say which row).
 */
export function environmentSaveFailed(error: unknown): string {
  const head = `Failed to save environment variables: ${statusTextOf(error)}`;
  return error instanceof ApiError && error.message && error.message !== error.statusText ? `${head}. ${error.message}` : head;
}

/** The saved variables as `GET /api/environment` answers them: name → {key, value}. */
export type SavedEnvironment = Record<string, EnvironmentRow>;

/** A row of the table: what it holds now, and the saved variable it began as (none: added here). */
export interface TableRow extends EnvironmentRow {
  id: number;
  shown: boolean;
  saved?: EnvironmentRow;
}

/**
 * Whether a row holds something not saved: added here, or its key or value changed since. The key is
 * compared trimmed, as it is saved: ' API_KEY' typed and saved as 'API_KEY' is saved.
 */
export function isUnsaved(row: TableRow): boolean {
  return !row.saved || row.key.trim() !== row.saved.key || row.value !== row.saved.value;
}

/** Saved variables taken out of the table and not saved so: the ones no row began as. */
export function removedKeys(rows: readonly TableRow[], saved: SavedEnvironment): string[] {
  const kept = new Set(rows.flatMap((r) => (r.saved ? [r.saved.key] : [])));
  return Object.values(saved)
    .map((v) => v.key)
    .filter((k) => !kept.has(k));
}

/**
 * The table once the saved variables are (re)loaded — at first, after a save, and after a refused
 * save, which reloads them (spec 000 §7): what the user did not touch shows as saved now; what the
 * user typed and has not saved (an added row, a changed key or value, a removed variable) is laid over
 * it, so a failed save loses none of it. `before` is what the rows were loaded from; `nextId` numbers
 * the rows that appear.
 */
export function withSaved(rows: readonly TableRow[], before: SavedEnvironment, now: SavedEnvironment, nextId: () => number): TableRow[] {
  const saved = new Map(Object.values(now).map((v) => [v.key, v]));
  const claimed = new Set<string>();
  const claim = (key: string | undefined) => {
    if (key === undefined || claimed.has(key) || !saved.has(key)) return undefined;
    claimed.add(key);
    return saved.get(key);
  };
  // Each row is compared with what is saved now under the key it began as, then (a row typed here)
  // under the key it has: a save that went through although it answered a failure leaves nothing unsaved.
  const began = rows.map((row) => claim(row.saved?.key));
  const out: TableRow[] = [];
  rows.forEach((row, i) => {
    const now = began[i];
    if (!isUnsaved(row)) {
      // Untouched: as saved now, or gone when it was removed elsewhere.
      if (now) out.push({ ...row, key: now.key, value: now.value, saved: now });
      return;
    }
    out.push({ ...row, saved: now ?? claim(row.key.trim()) });
  });
  // Saved variables with no row: added elsewhere (shown), or removed here (left out until saved).
  const removedHere = new Set(removedKeys(rows, before));
  for (const [key, v] of saved) if (!claimed.has(key) && !removedHere.has(key)) out.push({ id: nextId(), key: v.key, value: v.value, shown: false, saved: v });
  return out;
}
