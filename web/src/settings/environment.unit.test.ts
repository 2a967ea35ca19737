import { describe, expect, it } from 'vitest';
import { ApiError } from '../api';
import { environmentProblems, environmentSaveFailed, environmentToSave } from './environment';

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
