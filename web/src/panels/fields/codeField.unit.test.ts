import { describe, expect, it } from 'vitest';
import { codeFieldProblem } from './CodeField';

describe("a code field's text", () => {
  it('is named when JSON does not parse (the text is still sent, kept as typed)', () => {
    expect(codeFieldProblem('json', '{"a": 1,, }')).toMatch(/^Not valid JSON: /);
    expect(codeFieldProblem('json', '{"type": "object",')).toMatch(/^Not valid JSON: /);
  });

  it('is let be when it parses, is empty, holds a reference or {{KEY}} (JSON only once filled in), or is code', () => {
    for (const ok of ['{"a": 1}', '[1, 2]', '  ', '{"to": <start.input>}', '{"key": {{API_KEY}}}', '{"to": <agent-2.content>, "cv": <résumé.content>}']) expect(codeFieldProblem('json', ok), ok).toBeUndefined();
    expect(codeFieldProblem('javascript', 'return {a: 1,, }')).toBeUndefined();
  });
});
