import { describe, expect, it } from 'vitest';
import { ApiError } from '../api';
import { environmentProblems, environmentSaveFailed, environmentToSave, isUnsaved, removedKeys, withSaved, type SavedEnvironment, type TableRow } from './environment';

const row = (key: string, value = 'v') => ({ key, value });

describe('environment variables checked before saving', () => {
  it('names the row whose key the registry refuses, in its words, and leaves the others alone', () => {
    const found = environmentProblems([row('my_key!'), row('OPENAI_API_KEY', 'sk-1')]);
    expect(found.rows).toEqual(["Environment variable name 'my_key!' must start with a letter or _ and hold only letters, digits and _", undefined]);
    expect(environmentProblems([row('1ST')]).rows[0]).toMatch(/must start with a letter or _/);
    expect(environmentProblems([row('_ok_1'), row('Mixed_Case')]).rows).toEqual([undefined, undefined]);
  });

  it('refuses a value over 64 KB and takes one of exactly 64 KB', () => {
    expect(environmentProblems([row('BIG', 'x'.repeat(64 * 1024 + 1))]).rows[0]).toBe('Environment variable BIG is longer than 65536 characters');
    expect(environmentProblems([row('BIG', 'x'.repeat(64 * 1024))]).rows[0]).toBeUndefined();
  });

  it('marks the second row of a key used twice (trimmed), and a value left without a key', () => {
    expect(environmentProblems([row('A'), row(' A ')]).rows).toEqual([undefined, 'The key A is used twice.']);
    expect(environmentProblems([row('', 'sk-lost')]).rows).toEqual(['Give this value a key, or remove the row']);
    expect(environmentProblems([row('', '')]).rows).toEqual([undefined]);
  });

  it('refuses more than 500 variables as a whole', () => {
    const many = Array.from({ length: 501 }, (_, i) => row(`K${i}`));
    expect(environmentProblems(many).all).toBe('At most 500 environment variables are allowed');
    expect(environmentProblems(many.slice(1)).all).toBeUndefined();
  });

  it('sends the rows with a key, trimmed', () => {
    expect(environmentToSave([row(' A ', '1'), row('', ''), row('B', '2')])).toEqual({ A: '1', B: '2' });
  });
});

describe('a failed save', () => {
  it("says spec 000's words with the status text, then the server's message", () => {
    const refused = new ApiError(400, "Environment variable name 'my_key!' must start with a letter or _ and hold only letters, digits and _", {}, 'Bad Request');
    expect(environmentSaveFailed(refused)).toBe("Failed to save environment variables: Bad Request. Environment variable name 'my_key!' must start with a letter or _ and hold only letters, digits and _");
    expect(environmentSaveFailed(new ApiError(502, 'Bad Gateway', {}, 'Bad Gateway'))).toBe('Failed to save environment variables: Bad Gateway');
    expect(environmentSaveFailed(new Error('Failed to fetch'))).toBe('Failed to save environment variables: Failed to fetch');
  });
});

describe('the table over the saved variables', () => {
  const saved = (vars: Record<string, string>): SavedEnvironment => Object.fromEntries(Object.entries(vars).map(([key, value]) => [key, { key, value }]));
  const numbered = () => {
    let id = 100;
    return () => id++;
  };
  const view = (rows: TableRow[]) => rows.map((r) => [r.key, r.value, isUnsaved(r) ? 'unsaved' : 'saved']);

  it('shows the saved variables as saved when first loaded', () => {
    const rows = withSaved([], {}, saved({ A: '1', B: '2' }), numbered());
    expect(view(rows)).toEqual([
      ['A', '1', 'saved'],
      ['B', '2', 'saved'],
    ]);
    expect(rows.map((r) => r.id)).toEqual([100, 101]);
  });

  it('keeps what was typed and not saved over a reload (a refused save reloads them), with what changed elsewhere', () => {
    const before = saved({ A: '1', B: '2', C: '3', D: '4' });
    const loaded = withSaved([], {}, before, numbered());
    // Typed: A's value, C renamed to C2, B removed, a row added; D untouched.
    const typed: TableRow[] = [
      ...loaded.map((r) => (r.key === 'A' ? { ...r, value: 'typed' } : r.key === 'C' ? { ...r, key: 'C2' } : r)).filter((r) => r.key !== 'B'),
      { id: 7, key: 'NEW', value: 'x', shown: true },
    ];
    expect(removedKeys(typed, before)).toEqual(['B']);
    // Meanwhile, elsewhere: D changed, E added.
    const now = saved({ A: '1', B: '2', C: '3', D: 'changed', E: '5' });
    const merged = withSaved(typed, before, now, numbered());
    expect(view(merged)).toEqual([
      ['A', 'typed', 'unsaved'],
      ['C2', '3', 'unsaved'],
      ['D', 'changed', 'saved'],
      ['NEW', 'x', 'unsaved'],
      ['E', '5', 'saved'],
    ]);
    // B stays out, still to be removed by the next save, which sends what the table shows.
    expect(removedKeys(merged, now)).toEqual(['B']);
    expect(environmentToSave(merged)).toEqual({ A: 'typed', C2: '3', D: 'changed', NEW: 'x', E: '5' });
    expect(merged.find((r) => r.key === 'NEW')?.id).toBe(7);
  });

  it('leaves nothing unsaved once the saved variables hold what was typed (a save that went through)', () => {
    const before = saved({ A: '1', B: '2', C: '3' });
    const typed: TableRow[] = [
      ...withSaved([], {}, before, numbered())
        .filter((r) => r.key !== 'B')
        .map((r) => (r.key === 'C' ? { ...r, key: 'C2' } : r)),
      { id: 9, key: 'NEW', value: 'x', shown: true },
    ];
    const now = saved({ A: '1', C2: '3', NEW: 'x' });
    const merged = withSaved(typed, before, now, numbered());
    expect(view(merged)).toEqual([
      ['A', '1', 'saved'],
      ['C2', '3', 'saved'],
      ['NEW', 'x', 'saved'],
    ]);
    expect(removedKeys(merged, now)).toEqual([]);
  });

  it('drops an untouched row removed elsewhere, and keeps a typed one, now unsaved', () => {
    const before = saved({ A: '1', B: '2' });
    const typed = withSaved([], {}, before, numbered()).map((r) => (r.key === 'B' ? { ...r, value: 'typed' } : r));
    const merged = withSaved(typed, before, saved({}), numbered());
    expect(view(merged)).toEqual([['B', 'typed', 'unsaved']]);
    expect(merged[0]?.saved).toBeUndefined();
  });

  it('shows a key typed with spaces around it as saved once saved (trimmed), and then as the saved key', () => {
    const typed: TableRow[] = [{ id: 3, key: '  API_KEY ', value: 'v', shown: true }];
    expect(view(typed)).toEqual([['  API_KEY ', 'v', 'unsaved']]);
    const now = saved(environmentToSave(typed));
    const merged = withSaved(typed, {}, now, numbered());
    expect(merged.map((r) => isUnsaved(r))).toEqual([false]);
    expect(merged).toHaveLength(1);
    // A reload after that shows the row by its saved key; changing the key back to spaces only is no change.
    const reloaded = withSaved(merged, now, now, numbered());
    expect(view(reloaded)).toEqual([['API_KEY', 'v', 'saved']]);
    expect(isUnsaved({ ...reloaded[0]!, key: 'API_KEY ' })).toBe(false);
    expect(isUnsaved({ ...reloaded[0]!, key: 'API_KEY2' })).toBe(true);
  });
});
