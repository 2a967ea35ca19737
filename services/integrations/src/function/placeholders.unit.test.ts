import { describe, expect, it } from 'vitest';
import { scanSource, substituteInSource } from './placeholders.js';
import { SandboxPool } from './sandbox.js';
import { afterAll } from 'vitest';

const ENV = /\{\{([A-Z_]+)\}\}/g;
const sub = (code: string, values: Record<string, unknown>) => substituteInSource(code, ENV, (m) => (m[1] && m[1] in values ? { value: values[m[1]] } : undefined));
const pool = new SandboxPool({ size: 1 });
afterAll(() => pool.close());
const run = async (code: string) => pool.run({ code, params: {}, envVars: {} });

describe('placeholders in code', () => {
  it('writes text inside string literals and literals in code', () => {
    expect(sub('const a = "Bearer {{T}}"; const b = {{T}};', { T: 'x"y' })).toBe('const a = "Bearer x\\"y"; const b = "x\\"y";');
    expect(sub("const a = 'it{{T}}'", { T: "'s" })).toBe("const a = 'it\\'s'");
    expect(sub('const a = `v=${1}{{T}}`', { T: '${process}`' })).toBe('const a = `v=${1}\\${process}\\``');
    expect(sub('const n = {{N}} + 1', { N: 41 })).toBe('const n = 41 + 1');
  });

  it('a quote in a comment does not open a string; template expressions are code', () => {
    expect(sub("// don't\nconst a = {{T}}", { T: 'v' })).toBe('// don\'t\nconst a = "v"');
    expect(sub('const a = `${ {{T}} }`', { T: 'v' })).toBe('const a = `${ "v" }`');
    expect(scanSource('a"b"c').map((s) => s.kind)).toEqual(['code', '"', 'code']);
  });

  it('no value can end its literal or add code, whatever it holds', async () => {
    const hostile = '"; throw new Error("injected"); "\\\n`${1}`\'';
    for (const code of ['return "{{T}}"', "return '{{T}}'", 'return `{{T}}`', 'return {{T}}']) {
      expect(await run(sub(code, { T: hostile })), code).toMatchObject({ success: true, result: hostile });
    }
  });

  it('unknown placeholders stay as written', () => {
    expect(sub('return "{{NOPE}}"', {})).toBe('return "{{NOPE}}"');
  });
});
