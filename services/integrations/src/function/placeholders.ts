/** Where a position of JavaScript source is: plain code, or inside a string literal of this quote. */
export type SourceContext = 'code' | "'" | '"' | '`';

interface Segment {
  start: number;
  end: number;
  kind: SourceContext;
}

/**
 * Splits source into code and string-literal segments (quotes, escapes, comments, template
 * literals with `${…}` nesting). Regular expression literals are read as code, so a quote inside one
 * may mislead it; that only changes how a placeholder there is written, never what else runs.
 */
export function scanSource(src: string): Segment[] {
  const segments: Segment[] = [];
  // Each frame: a string kind, or code with its brace depth (code inside `${` ends at its closing brace).
  const stack: Array<{ kind: SourceContext; depth: number }> = [{ kind: 'code', depth: 0 }];
  let start = 0;
  const switchTo = (at: number) => {
    if (at > start) segments.push({ start, end: at, kind: stack[stack.length - 1]?.kind ?? 'code' });
    start = at;
  };
  let i = 0;
  while (i < src.length) {
    const top = stack[stack.length - 1] ?? { kind: 'code', depth: 0 };
    const c = src[i];
    if (top.kind === 'code') {
      if (c === '/' && src[i + 1] === '/') {
        const nl = src.indexOf('\n', i);
        i = nl === -1 ? src.length : nl;
        continue;
      }
      if (c === '/' && src[i + 1] === '*') {
        const close = src.indexOf('*/', i + 2);
        i = close === -1 ? src.length : close + 2;
        continue;
      }
      if (c === "'" || c === '"' || c === '`') {
        switchTo(i + 1);
        stack.push({ kind: c, depth: 0 });
        i += 1;
        continue;
      }
      if (c === '{') top.depth += 1;
      if (c === '}') {
        if (top.depth === 0 && stack.length > 1) {
          switchTo(i);
          stack.pop();
          start = i + 1;
          i += 1;
          continue;
        }
        top.depth -= 1;
      }
      i += 1;
      continue;
    }
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (top.kind === '`' && c === '$' && src[i + 1] === '{') {
      switchTo(i);
      stack.push({ kind: 'code', depth: 0 });
      start = i + 2;
      i += 2;
      continue;
    }
    if (c === top.kind || (c === '\n' && top.kind !== '`')) {
      switchTo(i);
      stack.pop();
      i += 1;
      continue;
    }
    i += 1;
  }
  switchTo(src.length);
  return segments;
}

/** A value written into a string literal of `quote` so that the literal holds its text. */
function escapeFor(text: string, quote: Exclude<SourceContext, 'code'>): string {
  let out = JSON.stringify(text).slice(1, -1);
  if (quote === "'") out = out.replace(/'/g, "\\'");
  if (quote === '`') out = out.replace(/`/g, '\\`').replace(/\$\{/g, '\\${');
  return out;
}

/**
 * Replaces each match of `pattern` (global) by its value: inside a string literal as the value's text
 * (strings as they are, other values as JSON) escaped for that literal, elsewhere as a JavaScript
 * literal. `valueOf` answers undefined to leave a match as written. So `"Bearer {{TOKEN}}"` and
 * `const n = <count>` both read as meant, and no value can end a literal or add code.
 */
export function substituteInSource(src: string, pattern: RegExp, valueOf: (match: RegExpExecArray) => { value: unknown } | undefined): string {
  const segments = scanSource(src);
  const kindAt = (pos: number): SourceContext => segments.find((s) => pos >= s.start && pos < s.end)?.kind ?? 'code';
  const re = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  let out = '';
  let last = 0;
  for (let m = re.exec(src); m !== null; m = re.exec(src)) {
    if (m[0].length === 0) {
      re.lastIndex += 1;
      continue;
    }
    const found = valueOf(m);
    if (!found) continue;
    const kind = kindAt(m.index);
    const { value } = found;
    const text = kind === 'code' ? (JSON.stringify(value) ?? 'undefined') : escapeFor(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''), kind);
    out += src.slice(last, m.index) + text;
    last = m.index + m[0].length;
  }
  return out + src.slice(last);
}
