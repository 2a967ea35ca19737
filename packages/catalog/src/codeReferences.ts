/**
 * How function and condition code is read for references, one copy for the runner (which rewrites
 * them into reads of values) and the deploy check (which checks what they name): the lexical part,
 * finding each `<name.path>` / `{{KEY}}` and whether it stands in code or inside a string.
 */

/** A reference's name or one step of its path as a run reads it: anything but `<`, `>`, `.` and white space (`agent-2`, `résumé`). */
const REFERENCE_STEP_SOURCE = String.raw`[^<>\s.]+`;
/** `{{KEY}}`, an environment variable: the key captured. */
const ENV_REFERENCE_SOURCE = String.raw`\{\{([A-Za-z0-9_\-.]+)\}\}`;

/** `<name.path>` (a reference) or `{{KEY}}` (an environment variable), as a run reads them in any value. */
export const REFERENCE_TOKEN_SOURCE = String.raw`<(${REFERENCE_STEP_SOURCE})((?:\.${REFERENCE_STEP_SOURCE})*)>|${ENV_REFERENCE_SOURCE}`;

/**
 * `<name.path>` with at least one path step, names as a run reads them (REFERENCE_TOKEN_SOURCE:
 * `<agent-2.content>`, `<résumé.text>`), name and path (after the first `.`) captured: a value only
 * known when the block runs, as validation and the deploy check read it in any text (`<b>` stays text).
 */
export const WRITTEN_REFERENCE_SOURCE = String.raw`<(${REFERENCE_STEP_SOURCE})\.(${REFERENCE_STEP_SOURCE}(?:\.${REFERENCE_STEP_SOURCE})*)>`;

/** A reference (WRITTEN_REFERENCE_SOURCE) or `{{KEY}}`: a value only known when the block runs. */
export const RUN_TIME_VALUE_SOURCE = `${WRITTEN_REFERENCE_SOURCE}|${ENV_REFERENCE_SOURCE}`;

/** Where a token stands in code: outside strings (`code`), or in the text of a `'`, `"` or `` ` `` literal. */
export type CodePlace = 'code' | "'" | '"' | '`';

/**
 * What a token's answer does: a string takes the token (its text is replaced by the string and not
 * read as code), undefined leaves it to be read character by character as the code it is written as.
 */
export type CodeTokenVisitor = (token: RegExpExecArray, place: CodePlace) => string | undefined;

/** In code, a reference's name when it names no block (letters, digits, `_`), and its path after the first `.`. */
const REFERENCE_HEAD = /^[A-Za-z0-9_]+$/;
const REFERENCE_PATH = /^\.[A-Za-z0-9_.[\]-]+$/;
/** A name as block names are written (`agent-2`, `résumé`): letters of any script, digits, `_` and `-`. */
const WRITTEN_HEAD = /^[\p{L}\p{M}\p{N}_-]+$/u;
/** A path whose first step starts with a letter or `_` (`.content`, not `.5`). */
const WORD_PATH = /^\.[A-Za-z_]/;

/**
 * Which names of no block `referenceShape` reads as references in code. `code` (the runner's, the
 * default): letters, digits and `_` only. `written` (the deploy check's only): also a name as block
 * names are written (`-`, letters of any script) when its path starts with a letter or `_`:
 * `<agent-2.content>`, `<résumé.text>`. The run reads such a token naming no block as code (a syntax
 * error where an expression starts); deploy refuses it as a reference to a missing block, while
 * `x <y-1.5> z` stays code for both.
 */
export type ReferenceNames = 'code' | 'written';

/**
 * `<name.path>` in code that reads as a reference even when no block has the name (the runner's
 * "names no block", the deploy check's): a name of letters, digits and `_`, then a path (with
 * `names: 'written'`, see ReferenceNames, also `<agent-2.content>`). Undefined for anything else
 * (`a <b`, `'<div>'`, `x <y-1.5> z` are code; `List<java.lang.String>` keeps its name `java`: a
 * reference shape, told apart by where it stands). A token naming a block the runner takes whatever
 * its name (`<agent-2.content>`).
 */
export function referenceShape(token: RegExpExecArray | RegExpMatchArray, names: ReferenceNames = 'code'): { head: string; path: string } | undefined {
  const head = token[1];
  const path = token[2] ?? '';
  if (head === undefined || !REFERENCE_PATH.test(path)) return undefined;
  const plain = REFERENCE_HEAD.test(head);
  if (!plain && (names === 'code' || !WRITTEN_HEAD.test(head) || !WORD_PATH.test(path))) return undefined;
  return { head, path: path.slice(1) };
}

type Lexical = CodePlace | 'line-comment' | 'block-comment';

/**
 * Reads JavaScript as the runner runs it and hands each token outside comments to `visit` with the
 * place it stands (in a template literal's `${…}` that is code again). Returns the code with the
 * taken tokens replaced; a `'` or `"` literal in which one was taken is wrapped in parentheses, so a
 * replacement that closes and reopens the string (`"…<ref>…".length`) still reads the whole text.
 */
export function scanCode(code: string, visit: CodeTokenVisitor): string {
  let out = '';
  let state: Lexical = 'code';
  const templateDepth: number[] = [];
  let braceDepth = 0;
  // Where the current ' or " literal began in `out`, and whether a token was taken inside it.
  let literalStart = 0;
  let literalSpliced = false;
  let i = 0;
  while (i < code.length) {
    const ch = code[i] as string;
    const next = code[i + 1];
    if (state === 'line-comment') {
      out += ch;
      if (ch === '\n') state = 'code';
      i += 1;
      continue;
    }
    if (state === 'block-comment') {
      out += ch;
      if (ch === '*' && next === '/') {
        out += '/';
        i += 2;
        state = 'code';
      } else i += 1;
      continue;
    }
    if (ch === '<' || ch === '{') {
      const re = new RegExp(REFERENCE_TOKEN_SOURCE, 'y');
      re.lastIndex = i;
      const m = re.exec(code);
      const taken = m ? visit(m, state) : undefined;
      if (m && taken !== undefined) {
        out += taken;
        if (state === "'" || state === '"') literalSpliced = true;
        i += m[0].length;
        continue;
      }
    }
    out += ch;
    i += 1;
    if (state === 'code') {
      if (ch === '/' && next === '/') {
        out += '/';
        i += 1;
        state = 'line-comment';
      } else if (ch === '/' && next === '*') {
        out += '*';
        i += 1;
        state = 'block-comment';
      } else if (ch === "'" || ch === '"' || ch === '`') {
        state = ch;
        literalStart = out.length - 1;
        literalSpliced = false;
      } else if (ch === '{') braceDepth += 1;
      else if (ch === '}') {
        if (templateDepth.length > 0 && templateDepth[templateDepth.length - 1] === braceDepth) {
          templateDepth.pop();
          state = '`';
        } else braceDepth -= 1;
      }
    } else if (ch === '\\') {
      if (next !== undefined) out += next;
      i += 1;
    } else if (ch === state) {
      if (literalSpliced && state !== '`') out = `${out.slice(0, literalStart)}(${out.slice(literalStart)})`;
      literalSpliced = false;
      state = 'code';
    } else if (state === '`' && ch === '$' && next === '{') {
      out += '{';
      i += 1;
      templateDepth.push(braceDepth);
      state = 'code';
    }
  }
  return out;
}

/**
 * The code the runner runs for a field of a block, or undefined when the field is not code: a
 * function's code (sub-block type `code`), and each condition tested before `else` (a
 * `condition-input` list, as JSON text or as the list). A list that does not read is undefined too.
 */
export function codeOfField(blockType: string, subBlockType: string | undefined, value: unknown): string[] | undefined {
  if (blockType === 'function' && subBlockType === 'code') return [typeof value === 'string' ? value : ''];
  if (blockType !== 'condition' || subBlockType !== 'condition-input') return undefined;
  let list: unknown = value ?? [];
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list) as unknown;
    } catch {
      return undefined;
    }
  }
  if (!Array.isArray(list)) return undefined;
  const out: string[] = [];
  for (const [i, item] of list.entries()) {
    const entry: Record<string, unknown> = item !== null && typeof item === 'object' ? Object.fromEntries(Object.entries(item)) : {};
    const title = typeof entry.title === 'string' ? entry.title.trim().toLowerCase() : i === 0 ? 'if' : 'else if';
    if (title === 'else') break;
    const raw = entry.value;
    out.push(typeof raw === 'string' ? raw : raw === undefined || raw === null ? '' : JSON.stringify(raw));
  }
  return out;
}
