/**
 * The little Markdown a copilot answer uses — paragraphs, bullet and numbered lists, fenced code,
 * **bold** and `code` — parsed into blocks the panel renders as elements (never as HTML). Anything
 * else stays as typed. A fence still open (the answer is streaming) runs to the end.
 */

export type Span = { kind: 'text' | 'bold' | 'code'; text: string };
export type MdBlock = { kind: 'paragraph'; spans: Span[] } | { kind: 'list'; ordered: boolean; items: Span[][] } | { kind: 'code'; text: string };

const ITEM = /^\s*(?:([-*•])|(\d+)[.)])\s+(.*)$/;

/** Splits a line into plain text, **bold** and `code`. */
export function spansOf(line: string): Span[] {
  const spans: Span[] = [];
  for (const part of line.split(/(\*\*[^*\n]+\*\*|`[^`\n]+`)/)) {
    if (!part) continue;
    if (part.length > 4 && part.startsWith('**') && part.endsWith('**')) spans.push({ kind: 'bold', text: part.slice(2, -2) });
    else if (part.length > 2 && part.startsWith('`') && part.endsWith('`')) spans.push({ kind: 'code', text: part.slice(1, -1) });
    else spans.push({ kind: 'text', text: part });
  }
  return spans;
}

function proseBlocks(text: string): MdBlock[] {
  const blocks: MdBlock[] = [];
  let paragraph: string[] = [];
  const endParagraph = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', spans: spansOf(paragraph.join('\n')) });
    paragraph = [];
  };
  for (const line of text.split('\n')) {
    const item = ITEM.exec(line);
    const last = blocks.at(-1);
    if (item) {
      endParagraph();
      const ordered = item[2] !== undefined;
      const spans = spansOf(item[3] ?? '');
      if (last?.kind === 'list' && last.ordered === ordered) last.items.push(spans);
      else blocks.push({ kind: 'list', ordered, items: [spans] });
    } else if (line.trim() === '') endParagraph();
    else paragraph.push(line);
  }
  endParagraph();
  return blocks;
}

/** The blocks of an answer, in order. */
export function parseMarkdown(text: string): MdBlock[] {
  const parts = text.split(/^```[^\n]*$/m);
  return parts.flatMap((part, i) => {
    if (i % 2 === 1) return [{ kind: 'code' as const, text: part.replace(/^\n|\n$/g, '') }];
    return proseBlocks(part);
  });
}
