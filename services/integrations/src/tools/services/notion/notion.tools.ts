import { NOTION_PAGE_SIZE, NOTION_VERSION, clamp, formatNotionId, parseJson, text, toInt } from '@weft/catalog';
import { errorMessage, TransientToolError } from '../../runtime/errors.js';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { apiMessage, call, list, obj, seg, serviceTool, str, type CallSpec, type Obj } from '../http.js';

async function notion(io: ToolIO, p: Obj, path: string, spec: Omit<CallSpec, 'url'> = {}): Promise<Obj> {
  if (text(p.accessToken) === '') throw new ToolError('Access token is required');
  const res = await call(io, {
    ...spec,
    url: `${io.baseUrl('notion')}${path}`,
    headers: { Authorization: `Bearer ${text(p.accessToken)}`, 'Notion-Version': NOTION_VERSION, 'Content-Type': 'application/json' },
  });
  if (!res.ok) throw new ToolError(`Notion API error: ${apiMessage(res)}`, res.status);
  return obj(res.data);
}

const plain = (richText: unknown) => list(richText).map((t) => str(obj(t).plain_text) ?? str(obj(obj(t).text).content) ?? '').join('');

/**
 * Notion's request limits: 2000 characters a text item, 100 rich_text items a block, 100 children a
 * request, and 500 KB a request body (Notion answers 413 past it): a request's blocks are kept to
 * `bytes` of UTF-8 JSON, leaving room for the rest of the body.
 */
const NOTION_LIMITS = { text: 2000, richText: 100, children: 100, bytes: 450_000 } as const;

/** A value's size as the UTF-8 JSON a request carries. */
const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** Text cut into pieces of at most `size` UTF-16 units, never inside a surrogate pair. */
export function pieces(content: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < content.length; ) {
    let end = Math.min(at + size, content.length);
    if (end < content.length && /[\uD800-\uDBFF]/.test(content[end - 1] ?? '')) end -= 1;
    out.push(content.slice(at, end));
    at = end;
  }
  return out;
}

/**
 * Items cut into runs of at most `count` items and `bytes` of UTF-8 JSON (an item is never split,
 * and one larger than `bytes` goes alone).
 */
function runs<T>(items: T[], count: number, bytes: number): T[][] {
  const out: T[][] = [];
  let run: T[] = [];
  let size = 0;
  for (const item of items) {
    const n = jsonBytes(item) + 1;
    if (run.length === count || (run.length > 0 && size + n > bytes)) {
      out.push(run);
      run = [];
      size = 0;
    }
    run.push(item);
    size += n;
  }
  if (run.length > 0) out.push(run);
  return out;
}

/**
 * Content as paragraph blocks within Notion's limits: rich_text items of at most 2000 characters
 * (read back as one text, they join seamlessly), at most 100 of them a paragraph, and a paragraph
 * small enough to go in one request (2000 three-byte characters are 6 KB: 100 of them would not).
 */
function paragraphs(content: string): Obj[] {
  const items = pieces(content, NOTION_LIMITS.text).map((piece) => ({ type: 'text', text: { content: piece } }));
  const blocks = runs(items, NOTION_LIMITS.richText, NOTION_LIMITS.bytes - 1000).map((richText) => ({ object: 'block', type: 'paragraph', paragraph: { rich_text: richText } }));
  return blocks.length > 0 ? blocks : [{ object: 'block', type: 'paragraph', paragraph: { rich_text: [{ type: 'text', text: { content: '' } }] } }];
}

/** Blocks as the requests' children: at most 100 blocks and about 450 KB a request, in order. */
const batches = (blocks: Obj[]) => runs(blocks, NOTION_LIMITS.children, NOTION_LIMITS.bytes);

/**
 * Appends batches of blocks to a page or block, one request each, in order; a failed batch says how
 * many blocks were written before it, and names the page `created` for them (a retry would create
 * another).
 */
async function appendBlocks(io: ToolIO, p: Obj, blockId: string, blocks: Obj[][], alreadyWritten = 0, created?: Obj): Promise<void> {
  const total = alreadyWritten + blocks.reduce((sum, batch) => sum + batch.length, 0);
  let written = alreadyWritten;
  for (const batch of blocks) {
    try {
      await notion(io, p, `/blocks/${seg(blockId)}/children`, { method: 'PATCH', json: { children: batch } });
    } catch (err) {
      if (written === 0) throw err;
      // Not retried past this point, even a 429 or 5xx: a retry would append the earlier batches again.
      const status = err instanceof ToolError || err instanceof TransientToolError ? err.status : undefined;
      const page = created ? `; the page was created: id ${String(created.id)}, url ${String(created.url ?? '')}` : '';
      throw new ToolError(`${errorMessage(err)} (${written} of ${total} blocks were written before it${page})`, status);
    }
    written += batch.length;
  }
}

/** A page's title: its title-typed property's text. */
function pageTitle(page: Obj): string {
  const titleProp = Object.values(obj(page.properties)).map(obj).find((prop) => prop.type === 'title');
  return plain(titleProp?.title) || 'Untitled';
}

const PREFIX: Record<string, string> = { heading_1: '# ', heading_2: '## ', heading_3: '### ', bulleted_list_item: '- ', numbered_list_item: '1. ', to_do: '- [ ] ', quote: '> ' };

/** Block children as markdown-ish text, one block per line. */
function blocksText(blocks: unknown): string {
  return list(blocks)
    .map((b) => {
      const block = obj(b);
      const type = String(block.type);
      const content = plain(obj(block[type]).rich_text);
      return content === '' ? '' : `${PREFIX[type] ?? ''}${content}`;
    })
    .filter((l) => l !== '')
    .join('\n\n');
}

/** Parses an optional JSON parameter; failure throws `Invalid {what} JSON: …` (§5). */
function optionalJson(value: unknown, what: string): unknown {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return undefined;
  const parsed = parseJson(value);
  if (!parsed.ok) throw new ToolError(`Invalid ${what} JSON: ${parsed.error}`);
  return parsed.value;
}

const pageSize = (v: unknown) => clamp(toInt(v, NOTION_PAGE_SIZE), 1, NOTION_PAGE_SIZE);

function listing(data: Obj) {
  const results = list(data.results).map(obj);
  const lines = results.map((r, i) => `${i + 1}. ${r.object === 'database' ? plain(r.title) || 'Untitled' : pageTitle(r)} (${String(r.object)}) ${String(r.url ?? '')}`);
  return {
    content: results.length ? `Found ${results.length} results:\n\n${lines.join('\n')}` : 'No results found.',
    metadata: { totalResults: results.length, hasMore: data.has_more === true, nextCursor: data.next_cursor ?? null, results },
  };
}

/** Notion tools (Notion-Version 2022-06-28); ids without dashes become 8-4-4-4-12. */
export const notionTools: ServiceTool[] = [
  serviceTool('notion_read', async (p, io) => {
    const id = seg(formatNotionId(p.pageId));
    const page = await notion(io, p, `/pages/${id}`);
    const children = await notion(io, p, `/blocks/${id}/children`, { query: { page_size: NOTION_PAGE_SIZE } });
    return {
      content: blocksText(children.results),
      metadata: { title: pageTitle(page), lastEditedTime: page.last_edited_time, createdTime: page.created_time, url: page.url },
    };
  }),
  serviceTool('notion_read_database', async (p, io) => {
    const db = await notion(io, p, `/databases/${seg(formatNotionId(p.databaseId))}`);
    const title = plain(db.title) || 'Untitled Database';
    const properties = obj(db.properties);
    const lines = Object.entries(properties).map(([name, prop]) => `- ${name}: ${String(obj(prop).type)}`);
    return {
      content: `Database: ${title}\n\nProperties:\n${lines.join('\n')}`,
      metadata: { title, url: db.url, id: db.id, createdTime: db.created_time, lastEditedTime: db.last_edited_time, properties },
    };
  }),
  serviceTool('notion_write', async (p, io) => {
    await appendBlocks(io, p, formatNotionId(p.pageId), batches(paragraphs(String(p.content ?? ''))));
    return { content: 'Successfully appended content to Notion page' };
  }),
  serviceTool('notion_create_page', async (p, io) => {
    const title = text(p.title);
    const content = String(p.content ?? '');
    const [first = [], ...rest] = content.trim() ? batches(paragraphs(content)) : [];
    const body = {
      parent: { type: 'page_id', page_id: formatNotionId(p.parentId) },
      properties: title ? { title: { type: 'title', title: [{ type: 'text', text: { content: title } }] } } : {},
      children: first,
    };
    const page = await notion(io, p, '/pages', { method: 'POST', json: body });
    // The page exists from here: a failed append names it, so a retry does not blindly create a second one.
    await appendBlocks(io, p, String(page.id), rest, first.length, page);
    const pageTitleText = title || pageTitle(page);
    return {
      content: `Successfully created page "${pageTitleText}"`,
      metadata: { title: pageTitleText, pageId: page.id, url: page.url, lastEditedTime: page.last_edited_time, createdTime: page.created_time },
    };
  }),
  serviceTool('notion_query_database', async (p, io) => {
    const filter = optionalJson(p.filter, 'filter');
    const sorts = optionalJson(p.sorts, 'sorts');
    const body: Obj = { page_size: pageSize(p.pageSize) };
    if (filter !== undefined) body.filter = filter;
    if (sorts !== undefined) body.sorts = sorts;
    return listing(await notion(io, p, `/databases/${seg(formatNotionId(p.databaseId))}/query`, { method: 'POST', json: body }));
  }),
  serviceTool('notion_search', async (p, io) => {
    const body: Obj = { page_size: pageSize(p.pageSize) };
    if (text(p.query) !== '') body.query = text(p.query);
    const filterType = text(p.filterType);
    if (filterType === 'page' || filterType === 'database') body.filter = { value: filterType, property: 'object' };
    return listing(await notion(io, p, '/search', { method: 'POST', json: body }));
  }),
  serviceTool('notion_create_database', async (p, io) => {
    const properties = optionalJson(p.properties, 'properties') ?? { Name: { title: {} } };
    const title = text(p.title);
    const db = await notion(io, p, '/databases', {
      method: 'POST',
      json: { parent: { type: 'page_id', page_id: formatNotionId(p.parentId) }, title: [{ type: 'text', text: { content: title } }], properties },
    });
    return {
      content: `Successfully created database "${title}"`,
      metadata: { id: db.id, title, url: db.url, createdTime: db.created_time, properties: db.properties },
    };
  }),
];
