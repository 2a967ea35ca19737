import { unknownBlockReference } from '@weft/catalog';
import { describe, expect, it } from 'vitest';
import { inField, normalizeName, pickEnv, ReferenceResolutionError, resolveFields, resolveJsonText, resolveText, resolveValue, rewriteCode, referencedNames, typedVariable, UnknownEnvironmentVariableError, type ReferenceScope } from './references.js';

const outputs: Record<string, unknown> = {
  start: { input: { x: 2, name: 'Ada', list: [10, 20] } },
  agent1: { content: 'hello', tokens: { total: 7 } },
  fn: { result: { ok: true, items: ['a', 'b'] }, stdout: '' },
};

function scope(extra: Partial<ReferenceScope> = {}): ReferenceScope {
  return {
    block: (name) => {
      if (name === 'later') return { kind: 'error', reason: 'block "Later" has not run' };
      return name in outputs ? { kind: 'ok', value: outputs[name] } : { kind: 'unknown' };
    },
    variables: { count: { type: 'number', value: '5' }, flag: { type: 'boolean', value: 'TRUE' }, cfg: { type: 'object', value: '{"a":1}' }, label: { type: 'plain', value: 'hi' } },
    envVars: { API_KEY: 'sk-1' },
    ...extra,
  };
}

describe('references', () => {
  it('normalizes block names: lowercased, spaces removed', () => {
    expect(normalizeName('Agent 1')).toBe('agent1');
    expect(normalizeName('  My  Block ')).toBe('myblock');
  });

  it('a value that is exactly one reference keeps its type; in a longer text it becomes text', () => {
    expect(resolveText('<start.input.x>', scope())).toBe(2);
    expect(resolveText(' <fn.result> ', scope())).toEqual({ ok: true, items: ['a', 'b'] });
    expect(resolveText('x is <start.input.x>', scope())).toBe('x is 2');
    expect(resolveText('obj <fn.result>', scope())).toBe('obj {"ok":true,"items":["a","b"]}');
    expect(resolveText('<start.input>', scope())).toEqual({ x: 2, name: 'Ada', list: [10, 20] });
  });

  it('reads paths with dots and indexes; a missing field is undefined (empty in text)', () => {
    expect(resolveText('<fn.result.items.1>', scope())).toBe('b');
    expect(resolveText('<start.input.list[0]>', scope())).toBe(10);
    expect(resolveText('<fn.result.nope>', scope())).toBeUndefined();
    expect(resolveText('[<fn.result.nope>]', scope())).toBe('[]');
  });

  it('paths read own members only: a member the value only inherits is missing, as <start.input.nosuch> (runs before patch own-value-paths read it)', () => {
    const asked: string[] = [];
    const counting = (answer: boolean) => () => (asked.push('asked'), answer);
    const own = scope({ inheritedPaths: counting(false), loop: { index: 0, currentItem: { k: 1 }, items: [{ k: 1 }] } });
    for (const ref of ['<start.input.constructor>', '<start.input.nosuch>', '<fn.result.toString>', '<fn.result.items.map>', '<loop.currentItem.__proto__>', '<start.constructor>', '<variable.cfg.hasOwnProperty>']) {
      expect(resolveText(ref, own)).toBeUndefined();
      expect(resolveText(`[${ref}]`, own)).toBe('[]');
    }
    expect(resolveText('<start.input.constructor>', scope())).toBeUndefined();
    // Asked only where a segment names an inherited member: six of the seven above, <start.constructor> twice (the starter's output, then its input); each resolved twice.
    expect(asked).toHaveLength(14);
    asked.length = 0;
    expect(resolveText('<fn.result.items.length>', own)).toBe(2);
    expect(resolveText('<start.input.list[1]>', own)).toBe(20);
    expect(asked).toEqual([]);
    // A value's own member of such a name is read (JSON keeps `__proto__` as an own key).
    const named = scope({ inheritedPaths: counting(false), block: () => ({ kind: 'ok', value: JSON.parse('{"constructor":"c","__proto__":{"toString":"t"}}') as unknown }) });
    expect(resolveText('<fn.constructor>', named)).toBe('c');
    expect(resolveText('<fn.__proto__.toString>', named)).toBe('t');
    expect(asked).toEqual([]);
    // Runs recorded before the patch read Object.prototype's member.
    expect(resolveText('<start.input.constructor>', scope({ inheritedPaths: () => true }))).toBe(Object);
    expect(resolveText('<fn.result.items.map>', scope({ inheritedPaths: () => true }))).toBe(Array.prototype.map);
  });

  it('<start.x> reads the input field x', () => {
    expect(resolveText('<start.name>', scope())).toBe('Ada');
  });

  it('variables are typed by their type', () => {
    expect(resolveText('<variable.count>', scope())).toBe(5);
    expect(resolveText('<variable.flag>', scope())).toBe(true);
    expect(resolveText('<variable.cfg.a>', scope())).toBe(1);
    expect(resolveText('<variable.label>', scope())).toBe('hi');
    expect(typedVariable('array', '[1,2]')).toEqual([1, 2]);
    expect(() => resolveText('<variable.missing>', scope())).toThrow('Reference <variable.missing> cannot be resolved: no variable named "missing"');
  });

  it('a variable is read by its own name: <variable.constructor> names none unless one is so named (runs before patch own-block-ids read it as empty)', () => {
    expect(() => resolveText('<variable.constructor>', scope())).toThrow('Reference <variable.constructor> cannot be resolved: no variable named "constructor"');
    expect(() => resolveText('<variable.constructor>', scope({ inheritedVariables: () => false }))).toThrow('no variable named "constructor"');
    expect(resolveText('<variable.constructor>', scope({ inheritedVariables: () => true }))).toBe('');
    const named = scope({ variables: { constructor: { type: 'number', value: '3' }, tostring: { type: 'plain', value: 't' } } });
    expect(resolveText('<variable.Constructor>', named)).toBe(3);
    expect(resolveText('<variable.toString>', named)).toBe('t');
  });

  it('loop and parallel contexts answer <loop.*> and <parallel.*>', () => {
    const s = scope({ loop: { index: 3, currentItem: { k: 'v' }, items: [1] }, parallel: { index: 1, currentItem: 'p', items: ['o', 'p'] } });
    expect(resolveText('<loop.index>', s)).toBe(3);
    expect(resolveText('<loop.currentItem.k>', s)).toBe('v');
    expect(resolveText('<parallel.items>', s)).toEqual(['o', 'p']);
    expect(resolveText('branch <parallel.index>', s)).toBe('branch 1');
  });

  it('{{KEY}} reads the environment; an unknown key stays as written; the log view keeps every key', () => {
    expect(resolveText('Bearer {{API_KEY}}', scope())).toBe('Bearer sk-1');
    expect(resolveText('{{NOPE}}', scope())).toBe('{{NOPE}}');
    expect(resolveText('Bearer {{API_KEY}}', scope({ maskEnv: true }))).toBe('Bearer {{API_KEY}}');
  });

  it('an unknown {{KEY}} of a well-formed name fails naming the key (and the field) once the run says so (patch unknown-env-var); other text stays', () => {
    let asked = 0;
    const fails = scope({ unknownEnvFails: () => (asked++, true) });
    expect(() => resolveText('Hi {{GREETING}}', fails)).toThrow(new UnknownEnvironmentVariableError('GREETING'));
    expect(() => resolveText('{{GREETING}}', fails)).toThrow('Environment variable "GREETING" was not found');
    expect(() => resolveJsonText('{"a": "{{GREETING}}"}', fails)).toThrow('Environment variable "GREETING" was not found');
    expect(() => resolveFields({ url: 'x', headers: [{ cells: { Value: '{{GREETING}}' } }] }, fails, (id) => `Headers (${id})`)).toThrow('Environment variable "GREETING" was not found in Headers (headers)');
    expect(() => inField('Code (code)', () => rewriteCode("return '{{GREETING}}'", fails))).toThrow('Environment variable "GREETING" was not found in Code (code)');
    expect(() => rewriteCode('return {{GREETING}}', fails)).toThrow(UnknownEnvironmentVariableError);
    const before = asked;
    expect(resolveText('{{API_KEY}} {{ }} {{a b}} {{a-b}} {{x.y}} {{1X}}', fails)).toBe('sk-1 {{ }} {{a b}} {{a-b}} {{x.y}} {{1X}}');
    expect(resolveText('{{GREETING}}', scope({ unknownEnvFails: () => true, maskEnv: true }))).toBe('{{GREETING}}');
    // Asked only when such a key is met; a run recorded before the patch keeps it as written.
    expect(asked).toBe(before);
    expect(resolveText('Hi {{GREETING}}', scope({ unknownEnvFails: () => false }))).toBe('Hi {{GREETING}}');
  });

  it('a reference to a block that has not run fails naming the reference; unknown names stay as written', () => {
    expect(() => resolveText('<later.result>', scope())).toThrow(ReferenceResolutionError);
    expect(() => resolveText('<later.result>', scope())).toThrow('Reference <later.result> cannot be resolved: block "Later" has not run');
    expect(resolveText('a <div> and <unknown.x>', scope())).toBe('a <div> and <unknown.x>');
  });

  it('resolves inside tables, lists and objects', () => {
    const table = [{ id: 'r1', cells: { Key: 'Authorization', Value: 'Bearer {{API_KEY}}' } }, { id: 'r2', cells: { Key: 'X-Name', Value: '<start.input.name>' } }];
    expect(resolveValue(table, scope())).toEqual([
      { id: 'r1', cells: { Key: 'Authorization', Value: 'Bearer sk-1' } },
      { id: 'r2', cells: { Key: 'X-Name', Value: 'Ada' } },
    ]);
    expect(resolveValue({ n: 1, nested: ['<start.input.x>'] }, scope())).toEqual({ n: 1, nested: [2] });
  });

  it('lists the block names a value references', () => {
    expect([...referencedNames({ a: '<Agent1.content> and <fn.result>', b: ['{{K}}'] })].sort()).toEqual(['agent1', 'fn']);
  });
});

describe('references in code', () => {
  const run = (code: string, s = scope()) => {
    const { code: rewritten, params } = rewriteCode(code, s);
    const fn = new Function('params', 'environmentVariables', rewritten) as (p: unknown, e: unknown) => unknown;
    return { rewritten, params, result: fn(params, s.envVars) };
  };

  it('passes references as values, never spliced into the source', () => {
    const evil: ReferenceScope = scope({ block: (n) => (n === 'fn' ? { kind: 'ok', value: { result: '"); throw new Error("pwned'} } : { kind: 'unknown' }) });
    const { rewritten, result } = run('return <fn.result>', evil);
    expect(rewritten).toBe('return params["<fn.result>"]');
    expect(result).toBe('"); throw new Error("pwned');
  });

  it('keeps types outside strings and text inside strings and template literals', () => {
    expect(run('return <start.input.x> * 2').result).toBe(4);
    expect(run('return "n=<start.input.x>!"').result).toBe('n=2!');
    expect(run("return 'hi <start.input.name>'.length").result).toBe(6);
    expect(run('return `list ${<start.input.list>.length} <fn.result>`').result).toBe('list 2 {"ok":true,"items":["a","b"]}');
  });

  it('reads {{KEY}} from environmentVariables, in code and in strings', () => {
    const { rewritten, result } = run('return "{{API_KEY}}".length + {{API_KEY}}.length');
    expect(rewritten).not.toContain('sk-1');
    expect(result).toBe(8);
  });

  it('names the environment variables the code reads, and only those are handed on', () => {
    const withOther = scope({ envVars: { API_KEY: 'sk-1', OTHER: 'secret-2' } });
    const rewritten = rewriteCode('const a = {{API_KEY}}; // {{OTHER}} in a comment\nreturn a + "{{MISSING}}"', withOther);
    expect(rewritten.envKeys).toEqual(['API_KEY']);
    expect(pickEnv(withOther.envVars, rewritten.envKeys)).toEqual({ API_KEY: 'sk-1' });
  });

  it('leaves comments and comparisons alone', () => {
    const { rewritten } = run('// see <fn.result>\nconst a = 1, b = 2;\nreturn a<b && b>a');
    expect(rewritten).toContain('// see <fn.result>');
    expect(rewritten).toContain('a<b && b>a');
  });

  it('lists references to blocks the workflow does not have, once each, apart inside strings; comparisons, tags and comments are not references', () => {
    const code = 'const a = 1, b = 2, c = [3];\nif (a <b && b> a && a<c.length) {}\n// <gone.result> in a comment\nconst tag = "<div>" + \'<br/>\';\nreturn <nosuch.result> + "<nosuch.result>" + `${<other.items[0]>}` + <fn.result.ok>';
    const rewritten = rewriteCode(code, scope());
    // A template literal's ${…} is code; its text is a string.
    expect(rewritten.unknownBlocks).toEqual(['<nosuch.result>', '<other.items[0]>']);
    expect(rewritten.unknownBlocksInStrings).toEqual(['<nosuch.result>']);
    expect(rewritten.code).toContain('<nosuch.result>');
    expect(rewritten.code).toContain('params["<fn.result.ok>"]');
    // The deploy check's message, from the catalogue (one text for both).
    expect(unknownBlockReference('<nosuch.result>')).toBe('Reference <nosuch.result> names no block');
    // The start, variables and containers are no block names: outside a loop `<loop.index>` stays as written.
    expect(rewriteCode('return <loop.index> + <start.input.x>', scope()).unknownBlocks).toEqual([]);
    expect(rewriteCode('return a <b.c', scope()).unknownBlocks).toEqual([]);
  });
});

describe('text in string literals that reads like a reference to no block', () => {
  // Ordinary code that ran before the unknown-reference check: such text stays text, the code as written.
  it.each([
    ['an XML path in quotes', "const section = '<system.web>';\nreturn section", '<system.web>'],
    ['a Java generic type name', 'return "List<java.lang.String>"', '<java.lang.String>'],
    ['template literal text', 'const customer = { name: "Ada" };\nreturn `Dear <customer.name>, thanks`', '<customer.name>'],
    ['a placeholder replaced by the code', "const tpl = 'Hi <user.name>';\nreturn tpl.replace('<user.name>', 'Ada')", '<user.name>'],
  ])('%s is no reference to fail on', (_what, code, text) => {
    const rewritten = rewriteCode(code, scope());
    expect(rewritten.unknownBlocks).toEqual([]);
    expect(rewritten.unknownBlocksInStrings).toEqual([text]);
    expect(rewritten.code).toBe(code);
    expect(rewritten.params).toEqual({});
  });

  it('outside strings, where only a reference can be, a name of no block still fails the block', () => {
    const rewritten = rewriteCode('const x = <nosuch.y>;\nreturn "<system.web>" + x', scope());
    expect(rewritten.unknownBlocks).toEqual(['<nosuch.y>']);
    expect(rewritten.unknownBlocksInStrings).toEqual(['<system.web>']);
    expect(rewriteCode('x = <nosuch.y>', scope()).unknownBlocks).toEqual(['<nosuch.y>']);
  });

  it('a reference to a block that exists is still substituted inside strings and template text', () => {
    const rewritten = rewriteCode("return `Dear <start.input.name>` + ' <customer.name>'", scope());
    expect(rewritten.code).toBe('return `Dear ${params["<start.input.name>:text"]}` + \' <customer.name>\'');
    expect(rewritten.params['<start.input.name>:text']).toBe('Ada');
    expect(rewritten.unknownBlocksInStrings).toEqual(['<customer.name>']);
  });
});

describe('references in JSON text', () => {
  it('writes values as JSON outside strings and as escaped text inside them', () => {
    expect(resolveJsonText('{"x": <start.input.x>, "who": "<start.input.name> \\"q\\"", "r": <fn.result>}', scope())).toEqual({ x: 2, who: 'Ada "q"', r: { ok: true, items: ['a', 'b'] } });
    expect(resolveJsonText('<fn.result>', scope())).toEqual({ ok: true, items: ['a', 'b'] });
    expect(resolveJsonText('not json <start.input.x>', scope())).toBe('not json 2');
  });
});
