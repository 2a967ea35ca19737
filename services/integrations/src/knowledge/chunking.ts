import { KNOWLEDGE_PROCESSING } from '@weft/catalog';
import { ToolError } from '../tools/serviceTool.js';

/**
 * How documents are cut into chunks (spec 001 §7: chunk size 1024, overlap 200, minimum 100
 * characters per chunk). Chunk size and overlap are in tokens — the minimum alone is named in
 * characters — counted as 4 characters per token, the usual estimate for English text with OpenAI's
 * tokenizers; so a chunk holds at most 4,096 characters and repeats about the last 800 of the one before.
 */
export interface ChunkingOptions {
  chunkSize: number;
  chunkOverlap: number;
  minCharactersPerChunk: number;
}

export const CHARS_PER_TOKEN = 4;

export const DEFAULT_CHUNKING: ChunkingOptions = {
  chunkSize: KNOWLEDGE_PROCESSING.chunkSize,
  chunkOverlap: KNOWLEDGE_PROCESSING.chunkOverlap,
  minCharactersPerChunk: KNOWLEDGE_PROCESSING.minCharactersPerChunk,
};

/** Bounds of a chosen chunk size, in tokens (the embedding models take 8,191 tokens per input). */
export const CHUNK_SIZE_BOUNDS = { min: 100, max: 8000 } as const;

/** Estimated tokens of a text. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

function intIn(value: unknown, field: string, min: number, max: number, fallback: number): number {
  if (value === undefined || value === null || value === '') return fallback;
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < min || n > max) throw new ToolError(`${field} must be a whole number from ${min} to ${max}`, 400);
  return n;
}

/** Chunking options from a request (`processingOptions` or a knowledge base's `chunkingConfig`), defaults filled in. */
export function chunkingOptions(value: unknown, field: string, base: ChunkingOptions = DEFAULT_CHUNKING): ChunkingOptions {
  if (value === undefined || value === null) return base;
  if (typeof value !== 'object' || Array.isArray(value)) throw new ToolError(`${field} must be an object`, 400);
  const v = value as Record<string, unknown>;
  const chunkSize = intIn(v.chunkSize, `${field}.chunkSize`, CHUNK_SIZE_BOUNDS.min, CHUNK_SIZE_BOUNDS.max, base.chunkSize);
  // Overlap below half a chunk and a minimum within half a chunk's characters: every chunk moves the
  // cut forward, and only the last chunk can come out short (it then reaches back, see chunkText).
  const chunkOverlap = intIn(v.chunkOverlap, `${field}.chunkOverlap`, 0, Math.floor(chunkSize / 2) - 1, Math.min(base.chunkOverlap, Math.floor(chunkSize / 2) - 1));
  const maxMin = (chunkSize * CHARS_PER_TOKEN) / 2;
  const minCharactersPerChunk = intIn(v.minCharactersPerChunk, `${field}.minCharactersPerChunk`, 1, maxMin, Math.min(base.minCharactersPerChunk, maxMin));
  return { chunkSize, chunkOverlap, minCharactersPerChunk };
}

/** Where a chunk may end, best first: a paragraph, a line, a sentence, a clause, a word. */
const BREAKS = ['\n\n', '\n', '. ', '! ', '? ', '; ', ', ', ' '];

/** The end of a chunk starting at `start` that may reach `limit`: the last good break in its second half. */
function breakPoint(text: string, start: number, limit: number): number {
  const from = start + Math.floor((limit - start) / 2);
  for (const sep of BREAKS) {
    const at = text.lastIndexOf(sep, limit - sep.length);
    if (at >= from) return at + sep.length;
  }
  return limit;
}

const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);

/** The first word start at or after `at` (and before `limit`), so an overlap does not begin mid-word. */
function wordStart(text: string, at: number, limit: number): number {
  if (at === 0 || isSpace(text[at - 1])) return at;
  for (let i = at; i < limit; i++) if (isSpace(text[i])) return i + 1;
  return at;
}

/** The last word start at or before `at`. */
function wordStartBefore(text: string, at: number): number {
  let i = at;
  while (i > 0 && !isSpace(text[i - 1])) i--;
  return i;
}

export interface TextChunk {
  content: string;
  /** Offsets of the content in the (line-end normalised) text. */
  start: number;
  end: number;
}

function piece(text: string, start: number, end: number): TextChunk {
  let s = start;
  let e = end;
  while (s < e && isSpace(text[s])) s++;
  while (e > s && isSpace(text[e - 1])) e--;
  return { content: text.slice(s, e), start: s, end: e };
}

/**
 * Cuts a text into chunks of at most `chunkSize` tokens, each starting `chunkOverlap` tokens before
 * the end of the one before (at a word start), ending at the best break in its second half. The last
 * chunk, when shorter than the minimum, reaches back into the text before it so it has the minimum;
 * a whole text shorter than the minimum is one chunk (a document is never left without one).
 */
export function chunkText(input: string, opts: ChunkingOptions = DEFAULT_CHUNKING): TextChunk[] {
  const text = input.replace(/\r\n?/g, '\n');
  const max = opts.chunkSize * CHARS_PER_TOKEN;
  const overlap = opts.chunkOverlap * CHARS_PER_TOKEN;
  const chunks: TextChunk[] = [];
  let start = 0;
  while (start < text.length) {
    const limit = Math.min(text.length, start + max);
    const end = limit < text.length ? breakPoint(text, start, limit) : limit;
    const c = piece(text, start, end);
    if (c.content) chunks.push(c);
    if (end >= text.length) break;
    const back = end - overlap;
    start = back > start ? wordStart(text, back, end) : end;
  }
  const last = chunks[chunks.length - 1];
  if (last && chunks.length > 1 && last.content.length < opts.minCharactersPerChunk) {
    chunks[chunks.length - 1] = piece(text, wordStartBefore(text, Math.max(0, last.end - opts.minCharactersPerChunk)), last.end);
  }
  return chunks;
}
