import { describe, expect, it } from 'vitest';
import { conditionAtLine, conditionProgram } from './blockValues.js';

/** Runs a condition program as the sandbox does: the body of an async function. */
const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (body: string) => () => Promise<unknown>;
const evaluate = (expressions: string[]): Promise<unknown> => new AsyncFunction(conditionProgram(expressions))();

describe('conditionProgram', () => {
  it('an expression ending in a semicolon (and whitespace after it) evaluates as without it', async () => {
    expect(await evaluate(['"no" === "yes";', '"yes" === "yes";  \n'])).toBe(1);
    expect(await evaluate(['1 > 2;;', '3 > 2 ;\n'])).toBe(1);
  });

  it('a semicolon alone is no condition (false); inner semicolons are left alone', async () => {
    expect(await evaluate([';', ' ; '])).toBe(-1);
    expect(await evaluate(['"a;b".includes(";")'])).toBe(0);
  });

  it('a statement after the expression is still a syntax error', () => {
    expect(() => evaluate(['1; 2'])).toThrow(SyntaxError);
  });

  it('conditionAtLine finds an expression after one that ended in semicolons and blank lines', () => {
    const expressions = ['1 === 1;\n\n', 'bad one'];
    const lines = conditionProgram(expressions).split('\n');
    expect(conditionAtLine(expressions, lines.indexOf('bad one') + 1)).toBe(1);
    expect(conditionAtLine(expressions, lines.indexOf('1 === 1') + 1)).toBe(0);
  });
});
