import { extractText, getDocumentProxy } from 'unpdf';
import mammoth from 'mammoth';
import Papa from 'papaparse';
import ExcelJS from 'exceljs';
import { uploadedFiles } from '@weft/catalog';
import { ToolError } from '../tools/serviceTool.js';
import { guardedFetch, OutboundRefusedError, RequestTimeoutError, NetworkError, ResponseTooLargeError } from '../net/guardedFetch.js';
import type { AddressPolicy } from '../net/addressPolicy.js';
import { isHttpUrl, json, objectBody, type Route } from './router.js';

/** Size limits (spec 001 §9): 100 MB per file, 50 MB for PDF parsing. */
export const FILE_MAX_BYTES = 100 * 1024 * 1024;
export const PDF_MAX_BYTES = 50 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 60_000;

export type FileKind = 'pdf' | 'docx' | 'csv' | 'xlsx' | 'json' | 'txt' | 'html' | 'md';

const BY_EXTENSION: Record<string, FileKind> = { pdf: 'pdf', docx: 'docx', csv: 'csv', xlsx: 'xlsx', json: 'json', txt: 'txt', text: 'txt', html: 'html', htm: 'html', md: 'md', markdown: 'md' };
const BY_MIME: Array<[RegExp, FileKind]> = [
  [/pdf/, 'pdf'],
  [/wordprocessingml/, 'docx'],
  [/csv/, 'csv'],
  [/spreadsheetml/, 'xlsx'],
  [/json/, 'json'],
  [/html/, 'html'],
  [/markdown/, 'md'],
  [/^text\//, 'txt'],
];

export interface ParsedFile {
  name: string;
  fileType: FileKind;
  size: number;
  content: string;
  metadata: Record<string, unknown>;
}

function kindOf(given: string, name: string, mime: string): FileKind {
  const g = given.trim().toLowerCase().replace(/^\./, '');
  if (g && g !== 'auto') {
    const k = BY_EXTENSION[g] ?? BY_MIME.find(([re]) => re.test(g))?.[1];
    if (!k) throw new ToolError(`Unsupported file type: ${given}. Supported: pdf, docx, csv, xlsx, json, txt, html, md`, 400);
    return k;
  }
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  const byExt = ext ? BY_EXTENSION[ext] : undefined;
  if (byExt) return byExt;
  const byMime = BY_MIME.find(([re]) => re.test(mime.toLowerCase()))?.[1];
  if (byMime) return byMime;
  throw new ToolError(`Could not tell the type of ${name}; pass fileType (pdf, docx, csv, xlsx, json, txt, html, md)`, 400);
}

function stripHtml(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<br\s*\/?>|<\/(p|div|li|h[1-6]|tr)>/gi, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s+/g, '\n')
    .trim();
}

/** Parses one file's bytes by kind with well-kept libraries (unpdf, mammoth, papaparse, exceljs). */
export async function parseBytes(bytes: Uint8Array, kind: FileKind, name: string): Promise<ParsedFile> {
  if (bytes.byteLength > FILE_MAX_BYTES) throw new ToolError(`File ${name} exceeds the maximum size of 100 MB`, 413);
  const text = () => new TextDecoder().decode(bytes);
  const base = { name, fileType: kind, size: bytes.byteLength };
  try {
    switch (kind) {
      case 'pdf': {
        if (bytes.byteLength > PDF_MAX_BYTES) throw new ToolError(`PDF ${name} exceeds the maximum size of 50 MB`, 413);
        const pdf = await getDocumentProxy(new Uint8Array(bytes));
        const { totalPages, text: content } = await extractText(pdf, { mergePages: true });
        return { ...base, content: content.trim(), metadata: { pageCount: totalPages } };
      }
      case 'docx': {
        const res = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
        return { ...base, content: res.value.trim(), metadata: { messages: res.messages.map((m) => m.message) } };
      }
      case 'csv': {
        const parsed = Papa.parse<Record<string, string>>(text(), { header: true, skipEmptyLines: true });
        return { ...base, content: text(), metadata: { headers: parsed.meta.fields ?? [], rowCount: parsed.data.length, rows: parsed.data } };
      }
      case 'xlsx': {
        const wb = new ExcelJS.Workbook();
        await wb.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
        const sheets: Array<{ name: string; rows: unknown[][] }> = [];
        wb.eachSheet((ws) => {
          const rows: unknown[][] = [];
          ws.eachRow((row) => {
            const values = Array.isArray(row.values) ? row.values.slice(1) : [];
            rows.push(values.map((v) => (v !== null && typeof v === 'object' && 'result' in v ? v.result : v)));
          });
          sheets.push({ name: ws.name, rows });
        });
        const content = sheets.map((s) => `Sheet: ${s.name}\n${s.rows.map((r) => r.map((c) => (c === undefined || c === null ? '' : String(c))).join(',')).join('\n')}`).join('\n\n');
        return { ...base, content, metadata: { sheets: sheets.map((s) => ({ name: s.name, rowCount: s.rows.length })) } };
      }
      case 'json': {
        const value: unknown = JSON.parse(text());
        return { ...base, content: JSON.stringify(value, null, 2), metadata: { data: value } };
      }
      case 'html':
        return { ...base, content: stripHtml(text()), metadata: { html: text() } };
      case 'md':
      case 'txt':
        return { ...base, content: text(), metadata: {} };
    }
  } catch (err) {
    if (err instanceof ToolError) throw err;
    throw new ToolError(`Failed to parse ${name} as ${kind}: ${err instanceof Error ? err.message : String(err)}`, 422);
  }
}

const DATA_LINK = /^data:([^;,]*)(;base64)?,(.*)$/s;

/** Whether a file path is one `parseFile` can load: a data link or an http(s) URL. */
export function isFileLink(path: string): boolean {
  const p = path.trim();
  return DATA_LINK.test(p) || isHttpUrl(p);
}

/** The bytes behind a file path: a data link or an http(s) URL fetched through the outbound guard (never a local path). */
async function load(path: string, policy: AddressPolicy, signal: AbortSignal | undefined): Promise<{ bytes: Uint8Array; name: string; mime: string }> {
  const data = DATA_LINK.exec(path);
  if (data) {
    const bytes = data[2] ? Buffer.from(data[3] ?? '', 'base64') : Buffer.from(decodeURIComponent(data[3] ?? ''), 'utf8');
    return { bytes: new Uint8Array(bytes), name: 'file', mime: data[1] ?? '' };
  }
  if (!isHttpUrl(path)) throw new ToolError('filePath must be an http(s) URL or a data: link', 400);
  let res: Response;
  try {
    res = await guardedFetch(path, { timeoutMs: FETCH_TIMEOUT_MS, maxBodyBytes: FILE_MAX_BYTES + 1, signal }, policy);
  } catch (err) {
    if (err instanceof OutboundRefusedError) throw new ToolError(err.message, 400);
    if (err instanceof RequestTimeoutError || err instanceof NetworkError) throw new ToolError(`Failed to download ${path}: ${err.message}`, 502);
    if (err instanceof ResponseTooLargeError) throw new ToolError('File exceeds the maximum size of 100 MB', 413);
    throw err;
  }
  if (!res.ok) throw new ToolError(`Failed to download file: ${res.status} ${res.statusText}`, 502);
  const name = decodeURIComponent(new URL(path).pathname.split('/').pop() || 'file');
  return { bytes: new Uint8Array(await res.arrayBuffer()), name, mime: res.headers.get('content-type') ?? '' };
}

/**
 * Loads and parses one file path (data link or http(s) URL). `name` (a document's file name) names a
 * data link and tells its type when `fileType` (an extension or MIME type) is empty.
 */
export async function parseFile(path: string, fileType: string, policy: AddressPolicy, name?: string, signal?: AbortSignal): Promise<ParsedFile> {
  const loaded = await load(path.trim(), policy, signal);
  const fileName = name ?? loaded.name;
  return parseBytes(loaded.bytes, kindOf(fileType, fileName, loaded.mime), fileName);
}

/**
 * `POST /api/files/parse {filePath, fileType}` (one path or a list), or `{file}`: the file block's
 * uploads (`{name, type, size, url}` each, url a data link; parsed under their names):
 * `{success, output: {files, combinedContent}}`.
 */
export function fileRoutes(policy: AddressPolicy): Route[] {
  return [
    {
      method: 'POST',
      path: '/files/parse',
      async handle(req) {
        const body = objectBody(req.body);
        const uploads = uploadedFiles(body.file);
        const given = uploads.length > 0 ? uploads : body.filePath;
        const sources = uploads.length > 0
          ? uploads.map((f) => ({ path: f.url, name: f.name }))
          : (Array.isArray(given) ? given : [given]).filter((p): p is string => typeof p === 'string' && p.trim() !== '').map((path) => ({ path, name: undefined }));
        if (sources.length === 0) throw new ToolError('Missing required parameter: filePath', 400);
        const fileType = typeof body.fileType === 'string' ? body.fileType : '';
        const files: ParsedFile[] = [];
        for (const s of sources) files.push(await parseFile(s.path, fileType, policy, s.name, req.signal));
        const output = { files, combinedContent: files.map((f) => f.content).join('\n\n') };
        return json({ success: true, output, ...(Array.isArray(given) ? { results: files.map((f) => ({ success: true, output: f })) } : {}) });
      },
    },
  ];
}
