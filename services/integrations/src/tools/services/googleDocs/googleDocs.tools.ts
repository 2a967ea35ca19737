import { text } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { apiMessage, bearer, call, list, obj, seg, serviceTool, str, type CallSpec, type Obj } from '../http.js';

const DOC_MIME = 'application/vnd.google-apps.document';
/** Statuses of the content write after a create that become the warning rather than a retry. */
const WRITE_ANSWERED: readonly number[] = [429, 500, 502, 503, 504];

async function docs(io: ToolIO, p: Obj, path: string, failure: string, spec: Omit<CallSpec, 'url'> = {}): Promise<Obj> {
  const res = await call(io, { ...spec, url: `${io.baseUrl('googleDocs')}${path}`, headers: bearer(p.accessToken) });
  if (!res.ok) throw new ToolError(`${failure}: ${apiMessage(res)}`, res.status);
  return obj(res.data);
}

const metadata = (id: string, title: unknown) => ({ documentId: id, title, mimeType: DOC_MIME, url: `https://docs.google.com/document/d/${id}/edit` });
const insertAtEnd = (content: string) => ({ requests: [{ insertText: { endOfSegmentLocation: {}, text: content } }] });

/** The document's text: every paragraph's text runs in order. */
function documentText(doc: Obj): string {
  return list(obj(doc.body).content)
    .flatMap((el) => list(obj(obj(el).paragraph).elements).map((e) => str(obj(obj(e).textRun).content) ?? ''))
    .join('');
}

function required(value: unknown, message: string): string {
  const v = text(value);
  if (v === '') throw new ToolError(message);
  return v;
}

/** Google Docs tools: read, append at the end, create (Drive file, then content in a second step). */
export const googleDocsTools: ServiceTool[] = [
  serviceTool('google_docs_read', async (p, io) => {
    const id = required(p.documentId, 'Document ID is required');
    const doc = await docs(io, p, `/${seg(id)}`, 'Failed to read Google Docs document');
    return { content: documentText(doc), metadata: metadata(id, doc.title) };
  }),
  serviceTool('google_docs_write', async (p, io) => {
    const id = required(p.documentId, 'Document ID is required');
    const content = String(p.content ?? '');
    if (content.trim() === '') throw new ToolError('Content is required');
    await docs(io, p, `/${seg(id)}:batchUpdate`, 'Failed to write to Google Docs document', { method: 'POST', json: insertAtEnd(content) });
    return { updatedContent: true, metadata: metadata(id, undefined) };
  }),
  serviceTool('google_docs_create', async (p, io) => {
    const title = required(p.title, 'Title is required');
    const created = await call(io, {
      method: 'POST',
      url: `${io.baseUrl('googleDrive')}/files`,
      headers: bearer(p.accessToken),
      json: { name: title, mimeType: DOC_MIME, ...(text(p.folderId) ? { parents: [text(p.folderId)] } : {}) },
    });
    if (!created.ok) throw new ToolError(`Failed to create Google Docs document: ${apiMessage(created)}`, created.status);
    const id = String(obj(created.data).id);
    const out: Obj = { metadata: metadata(id, title) };
    const content = String(p.content ?? '');
    if (content.trim() !== '') {
      // A failed content write leaves the created document in place: warn, still succeed (§4). Its 429 and 5xx are
      // answered here too: a retry of the whole tool would create a second document.
      const written = await call(io, {
        method: 'POST',
        url: `${io.baseUrl('googleDocs')}/${seg(id)}:batchUpdate`,
        headers: bearer(p.accessToken),
        json: insertAtEnd(content),
        answerStatuses: WRITE_ANSWERED,
      });
      if (!written.ok) out.warning = `Document created, but writing its content failed: ${apiMessage(written)}`;
    }
    return out;
  }),
];
