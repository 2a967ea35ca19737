import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolError } from '../tools/serviceTool.js';
import { json, objectBody, str, type Route } from './router.js';

/** Docs search topK: 1-20, default 10 (spec 001 §5). */
export const DOCS_TOP_K = { default: 10, max: 20 } as const;

interface Section {
  id: string;
  title: string;
  content: string;
  url: string;
  file: string;
  terms: Map<string, number>;
  titleTerms: Set<string>;
  length: number;
}

const tokenize = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/** The project's docs folder: WEFT_DOCS_DIR, else the nearest `docs/` above this file. */
export function findDocsDir(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.WEFT_DOCS_DIR) return env.WEFT_DOCS_DIR;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const candidate = path.join(dir, 'docs');
    if (existsSync(candidate) && statSync(candidate).isDirectory() && existsSync(path.join(dir, 'package.json'))) return candidate;
    dir = path.dirname(dir);
  }
  return null;
}

function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...markdownFiles(full));
    else if (/\.(md|mdx|txt)$/i.test(entry.name)) out.push(full);
  }
  return out.sort();
}

/** Splits every markdown file into its heading sections, indexed by term counts. */
export function indexDocs(dir: string): Section[] {
  const sections: Section[] = [];
  for (const file of markdownFiles(dir)) {
    const rel = path.relative(dir, file).split(path.sep).join('/');
    let title = rel;
    let lines: string[] = [];
    let n = 0;
    const flush = () => {
      const content = lines.join('\n').trim();
      if (!content) return;
      const terms = new Map<string, number>();
      const words = tokenize(`${title} ${content}`);
      for (const w of words) terms.set(w, (terms.get(w) ?? 0) + 1);
      const anchor = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
      sections.push({ id: `${rel}#${n++}`, title, content, url: `docs/${rel}${anchor ? `#${anchor}` : ''}`, file: rel, terms, titleTerms: new Set(tokenize(title)), length: words.length });
    };
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const h = /^#{1,6}\s+(.*)$/.exec(line);
      if (h) {
        flush();
        title = (h[1] ?? '').trim();
        lines = [];
      } else lines.push(line);
    }
    flush();
  }
  return sections;
}

/** BM25 over the sections, title matches counted double. */
export function searchDocs(sections: Section[], query: string, topK: number) {
  const terms = [...new Set(tokenize(query))];
  const avg = sections.reduce((s, x) => s + x.length, 0) / Math.max(1, sections.length);
  const df = new Map(terms.map((t) => [t, sections.filter((s) => s.terms.has(t)).length]));
  const scored = sections.map((s) => {
    let score = 0;
    for (const t of terms) {
      const tf = s.terms.get(t) ?? 0;
      if (!tf) continue;
      const idf = Math.log(1 + (sections.length - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
      score += idf * ((tf * 2.2) / (tf + 1.2 * (0.25 + 0.75 * (s.length / avg)))) * (s.titleTerms.has(t) ? 2 : 1);
    }
    return { s, score };
  });
  return scored
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || a.s.id.localeCompare(b.s.id))
    .slice(0, topK)
    .map(({ s, score }) => ({ id: s.id, title: s.title, content: s.content.slice(0, 2000), url: s.url, score: Math.round(score * 1000) / 1000, metadata: { file: s.file } }));
}

/** `POST /api/docs/search {query, topK}` → `{results, searchTime}` over the project's own docs. */
export function docsRoutes(docsDir: string | null): Route[] {
  let index: Section[] | null = null;
  return [
    {
      method: 'POST',
      path: '/docs/search',
      handle(req) {
        const b = objectBody(req.body);
        if (b.query !== undefined && typeof b.query !== 'string') throw new ToolError('query must be a string', 400);
        const query = str(b, 'query').trim();
        if (!query) throw new ToolError('query is required', 400);
        // A number (or its text), clamped to 1..max; another type, or text that is no number, is refused.
        const given = b.topK ?? DOCS_TOP_K.default;
        const raw = typeof given === 'number' || typeof given === 'string' ? Number(given) : Number.NaN;
        if (!Number.isFinite(raw)) throw new ToolError(`topK must be a number from 1 to ${DOCS_TOP_K.max}`, 400);
        const topK = Math.min(DOCS_TOP_K.max, Math.max(1, Math.floor(raw)));
        if (!docsDir || !existsSync(docsDir)) throw new ToolError('The documentation is not available on this server (set WEFT_DOCS_DIR)', 503);
        const started = performance.now();
        index ??= indexDocs(docsDir);
        const results = searchDocs(index, query, topK);
        return Promise.resolve(json({ results, searchTime: Math.round((performance.now() - started) * 100) / 100 }));
      },
    },
    {
      method: 'POST',
      path: '/tools/thinking',
      handle(req) {
        const thought = str(objectBody(req.body), 'thought');
        if (!thought) throw new ToolError('thought is required', 400);
        return Promise.resolve(json({ success: true, output: { acknowledgedThought: thought } }));
      },
    },
  ];
}
