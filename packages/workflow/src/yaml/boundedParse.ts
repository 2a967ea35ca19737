import { CST, Composer, Lexer, Parser, YAMLParseError, type Document, type LineCounter } from 'yaml';
import { MAX_NESTING_DEPTH } from '../model/nesting.js';

/** A flow collection (`[…]`, `{…}`) opened past MAX_NESTING_DEPTH levels: where, and the path to it as far as the parser has read. */
export class TooDeepYaml extends Error {
  constructor(
    readonly offset: number,
    readonly path: Array<string | number>,
  ) {
    super('nested too deeply');
    this.name = 'TooDeepYaml';
  }
}

/** The path to what the parser is reading: each open collection's current key or index. */
function openPath(stack: readonly CST.Token[]): Array<string | number> {
  const path: Array<string | number> = [];
  for (const token of stack) {
    if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection') continue;
    const last = token.items[token.items.length - 1];
    const isSeq = token.type === 'block-seq' || (token.type === 'flow-collection' && token.start.source === '[');
    if (isSeq) path.push(Math.max(0, token.items.length - 1));
    else {
      const key = last?.key ? CST.resolveAsScalar(last.key)?.value : undefined;
      path.push(key ?? '?');
    }
  }
  return path;
}

/**
 * `parseDocument(text, options)` with flow collections counted as they are read: one opened past
 * MAX_NESTING_DEPTH levels throws TooDeepYaml before the document is built (`[[[…` a million deep
 * cost tens of seconds of CPU, to end in a stack overflow). Collections nested by indentation
 * cannot go as deep within a body's size; the document's value is checked as a whole after.
 */
export function boundedParseDocument(text: string, options: { lineCounter: LineCounter; uniqueKeys: boolean }): Document.Parsed {
  const parser = new Parser(options.lineCounter.addNewLine);
  const composer = new Composer({ ...options, prettyErrors: false });
  function* tokens(): Generator<CST.Token, void> {
    // As Parser.parse does: the first line starts at 0.
    options.lineCounter.addNewLine(0);
    let depth = 0;
    for (const lexeme of new Lexer().lex(text)) {
      if (lexeme === '[' || lexeme === '{') {
        depth += 1;
        if (depth > MAX_NESTING_DEPTH) throw new TooDeepYaml(parser.offset, openPath(parser.stack));
      } else if (lexeme === ']' || lexeme === '}') depth = Math.max(0, depth - 1);
      yield* parser.next(lexeme);
    }
    yield* parser.end();
  }
  // As parseDocument: the first document, and an error for a second.
  let doc: Document.Parsed | undefined;
  for (const next of composer.compose(tokens(), true, text.length)) {
    if (!doc) doc = next;
    else {
      doc.errors.push(new YAMLParseError([next.range[0], next.range[1]], 'MULTIPLE_DOCS', 'Source contains multiple documents; please use YAML.parseAllDocuments()'));
      break;
    }
  }
  if (!doc) throw new Error('The YAML composer made no document');
  return doc;
}
