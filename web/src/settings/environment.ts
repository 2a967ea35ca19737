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
