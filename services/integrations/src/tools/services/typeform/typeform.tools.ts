import { text, toInt } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { apiMessage, bearer, call, list, obj, seg, serviceTool, withQuery, type CallSpec, type Obj } from '../http.js';

/** Typeform's page size default (§9). */
const PAGE_SIZE = 25;

/** What a 403 on insights means (§8): the four usual causes. */
export const TYPEFORM_INSIGHTS_FORBIDDEN = [
  'Typeform API error (403): Access to form insights was denied. Possible reasons:',
  '1. Your access token is missing the read:insights scope.',
  '2. Insights are not available on your Typeform plan.',
  '3. The form does not belong to your account, or you were not given access to it.',
  '4. The access token is invalid or has expired.',
].join('\n');

const failure = (status: number, message: string) => new ToolError(`Typeform API error (${status}): ${message}`, status);

async function typeform(io: ToolIO, p: Obj, path: string, spec: Omit<CallSpec, 'url'> = {}): Promise<Obj> {
  const res = await call(io, { ...spec, url: `${io.baseUrl('typeform')}${path}`, headers: bearer(p.apiKey) });
  if (!res.ok) throw failure(res.status, apiMessage(res));
  return obj(res.data);
}

export const typeformTools: ServiceTool[] = [
  serviceTool('typeform_responses', async (p, io) => {
    const completed = text(p.completed);
    const data = await typeform(io, p, `/forms/${seg(text(p.formId))}/responses`, {
      query: {
        page_size: toInt(p.pageSize, PAGE_SIZE),
        since: text(p.since),
        until: text(p.until),
        // 'all' means no filter (§5).
        completed: completed === 'true' || completed === 'false' ? completed : undefined,
      },
    });
    return { total_items: data.total_items ?? 0, page_count: data.page_count ?? 0, items: list(data.items) };
  }),
  serviceTool('typeform_files', async (p, io) => {
    const path = ['forms', text(p.formId), 'responses', text(p.responseId), 'fields', text(p.fieldId), 'files', text(p.filename)].map(seg).join('/');
    const inline = p.inline === true || p.inline === 'true';
    const url = withQuery(`${io.baseUrl('typeform')}/${path}`, inline ? { inline: 'true' } : undefined);
    const res = await io.fetch(url, { method: 'GET', headers: bearer(p.apiKey) });
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (!res.ok) {
      const body = new TextDecoder().decode(bytes);
      let message = res.statusText || `HTTP ${res.status}`;
      try {
        const d = obj(JSON.parse(body));
        message = String(d.description ?? d.message ?? message);
      } catch {
        if (body !== '') message = body;
      }
      throw failure(res.status, message);
    }
    return {
      fileUrl: url,
      filename: text(p.filename),
      contentType: res.headers.get('content-type') ?? 'application/octet-stream',
      size: bytes.byteLength,
      content: Buffer.from(bytes).toString('base64'),
    };
  }),
  serviceTool('typeform_insights', async (p, io) => {
    const res = await call(io, { url: `${io.baseUrl('typeform')}/insights/${seg(text(p.formId))}/summary`, headers: bearer(p.apiKey) });
    if (res.status === 403) throw new ToolError(TYPEFORM_INSIGHTS_FORBIDDEN, 403);
    if (!res.ok) throw failure(res.status, apiMessage(res));
    return obj(res.data);
  }),
];
