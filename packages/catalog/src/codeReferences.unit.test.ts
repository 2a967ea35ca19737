import { describe, expect, it } from 'vitest';
import { codeOfField, referenceShape, REFERENCE_TOKEN_SOURCE, scanCode, type CodePlace } from './codeReferences.js';

/** Each token the scanner hands over, with its place; none taken. */
function places(code: string): Array<[string, CodePlace]> {
  const seen: Array<[string, CodePlace]> = [];
  scanCode(code, (m, place) => {
    seen.push([m[0], place]);
    return undefined;
  });
  return seen;
}

describe('scanCode', () => {
  it('tells a reference in code from one in a string literal or template text, and skips comments', () => {
    expect(places("x = <a.b> + '<system.web>' + \"List<java.lang.String>\"")).toEqual([
      ['<a.b>', 'code'],
      ['<system.web>', "'"],
      ['<java.lang.String>', '"'],
    ]);
    expect(places('`Dear <customer.name>, ${<nosuch.x>} and ${ {k: `<in.tpl>`}.k }` // <c.d>\n/* <e.f> */ {{KEY}}')).toEqual([
      ['<customer.name>', '`'],
      ['<nosuch.x>', 'code'],
      ['<in.tpl>', '`'],
      ['{{KEY}}', 'code'],
    ]);
    expect(places("'it\\'s <a.b>' + <c.d>")).toEqual([
      ['<a.b>', "'"],
      ['<c.d>', 'code'],
    ]);
  });

  it('replaces the tokens it is answered for and wraps a quoted literal that got one', () => {
    expect(scanCode("'<a.b>'.length + <a.b> + <x.y>", (m, place) => (m[0] !== '<a.b>' ? undefined : place === 'code' ? 'V' : `${place} + V + ${place}`))).toBe("('' + V + '').length + V + <x.y>");
  });
});

describe('referenceShape', () => {
  const token = (text: string): RegExpExecArray => {
    const m = new RegExp(REFERENCE_TOKEN_SOURCE).exec(text);
    if (!m) throw new Error(`no token in ${text}`);
    return m;
  };
  it("reads the runner's names by default (letters, digits, _) and, for the deploy check, names as blocks are written", () => {
    expect(referenceShape(token('<nosuch.result>'))).toEqual({ head: 'nosuch', path: 'result' });
    // The runner's reading (the default) does not change: these are code to it.
    for (const t of ['<agent-2.content>', '<résumé.text>', '<y-1.5>']) expect(referenceShape(token(t)), t).toBeUndefined();
    expect(referenceShape(token('<agent-2.content>'), 'written')).toEqual({ head: 'agent-2', path: 'content' });
    expect(referenceShape(token('<résumé.text.summary>'), 'written')).toEqual({ head: 'résumé', path: 'text.summary' });
    expect(referenceShape(token('<nosuch.result>'), 'written')).toEqual({ head: 'nosuch', path: 'result' });
    // A numeric path (`x <y-1.5> z`) and other punctuation stay code for both.
    for (const t of ['<y-1.5>', '<a+b.c>', '<a-b.$c>']) expect(referenceShape(token(t), 'written'), t).toBeUndefined();
  });
});

describe('codeOfField', () => {
  it('answers the code the runner runs: a function\'s code, the conditions tested before else', () => {
    expect(codeOfField('function', 'code', 'return 1')).toEqual(['return 1']);
    expect(codeOfField('api', 'code', '{"a": 1}')).toBeUndefined();
    const conditions = [{ title: 'if', value: 'a > 1' }, { title: 'else if', value: 2 }, { title: 'else', value: '<x.y>' }];
    expect(codeOfField('condition', 'condition-input', JSON.stringify(conditions))).toEqual(['a > 1', '2']);
    expect(codeOfField('condition', 'condition-input', conditions)).toEqual(['a > 1', '2']);
    expect(codeOfField('condition', 'condition-input', '[not json')).toBeUndefined();
  });
});
