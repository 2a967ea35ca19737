import type { FakeServer } from '../server.js';
import { createServiceFake } from './kit.js';

const rich = (t: string) => [{ type: 'text', plain_text: t, text: { content: t } }];

/** Recorded Notion API answers (version 2022-06-28). */
export const NOTION_FIXTURES = {
  page: {
    object: 'page',
    id: '1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d',
    url: 'https://www.notion.so/Roadmap-1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d',
    created_time: '2025-04-01T09:00:00.000Z',
    last_edited_time: '2025-04-02T09:00:00.000Z',
    properties: { title: { id: 'title', type: 'title', title: rich('Roadmap') } },
  },
  children: {
    object: 'list',
    results: [
      { type: 'heading_1', heading_1: { rich_text: rich('Q3') } },
      { type: 'paragraph', paragraph: { rich_text: rich('Ship the builder.') } },
      { type: 'bulleted_list_item', bulleted_list_item: { rich_text: rich('Tools') } },
    ],
    has_more: false,
  },
  database: {
    object: 'database',
    id: 'db000000-0000-0000-0000-000000000001',
    url: 'https://www.notion.so/db1',
    title: rich('Tasks'),
    created_time: '2025-04-01T09:00:00.000Z',
    last_edited_time: '2025-04-03T09:00:00.000Z',
    properties: { Name: { id: 'title', type: 'title', title: {} }, Status: { id: 's', type: 'select', select: { options: [] } } },
  },
  queryResults: {
    object: 'list',
    results: [{ object: 'page', id: 'row-1', url: 'https://www.notion.so/row-1', properties: { Name: { type: 'title', title: rich('Write docs') } } }],
    has_more: true,
    next_cursor: 'cursor-2',
  },
  searchResults: {
    object: 'list',
    results: [{ object: 'page', id: 'p-1', url: 'https://www.notion.so/p-1', last_edited_time: '2025-04-02T09:00:00.000Z', properties: { title: { type: 'title', title: rich('Roadmap') } } }],
    has_more: false,
    next_cursor: null,
  },
} as const;

type Json = Record<string, unknown>;
const asObj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Notion's size limits on written children: at most 100 blocks, 100 rich_text items a block, 2000 characters a text. */
function limitBreach(body: unknown): string | undefined {
  const children = asList(asObj(body).children);
  if (children.length > 100) return `body.children.length should be ≤ \`100\`, instead was \`${children.length}\`.`;
  for (const [i, child] of children.entries()) {
    const block = asObj(child);
    const path = `body.children[${i}].${String(block.type)}.rich_text`;
    const richText = asList(asObj(block[String(block.type)]).rich_text);
    if (richText.length > 100) return `${path}.length should be ≤ \`100\`, instead was \`${richText.length}\`.`;
    for (const [j, item] of richText.entries()) {
      const content = asObj(asObj(item).text).content;
      if (typeof content === 'string' && content.length > 2000) return `${path}[${j}].text.content.length should be ≤ \`2000\`, instead was \`${content.length}\`.`;
    }
  }
  return undefined;
}

/** Notion's cap on a request body: 500 KB. */
const NOTION_MAX_BODY_BYTES = 500_000;

/** A write's answer: 413 past 500 KB, Notion's validation_error when a limit is broken, else `ok`. */
const checked = (ok: Json) => (req: { body: unknown; bytes: Buffer }) => {
  if (req.bytes.length > NOTION_MAX_BODY_BYTES) {
    return { status: 413, json: { object: 'error', status: 413, code: 'payload_too_large', message: `Request body too large: ${req.bytes.length} bytes (at most 500KB).` } };
  }
  const breach = limitBreach(req.body);
  return breach ? { status: 400, json: { object: 'error', status: 400, code: 'validation_error', message: `body failed validation: ${breach}` } } : { json: ok };
};

/** A fake Notion API under /v1; written children are held to Notion's size limits, a write's body to 500 KB. */
export function createFakeNotion(): Promise<FakeServer> {
  return createServiceFake([
    ['GET', '/v1/pages/:id', { json: NOTION_FIXTURES.page }],
    ['GET', '/v1/blocks/:id/children', { json: NOTION_FIXTURES.children }],
    ['PATCH', '/v1/blocks/:id/children', checked({ object: 'list', results: [] })],
    ['POST', '/v1/pages', checked(NOTION_FIXTURES.page)],
    ['GET', '/v1/databases/:id', { json: NOTION_FIXTURES.database }],
    ['POST', '/v1/databases/:id/query', { json: NOTION_FIXTURES.queryResults }],
    ['POST', '/v1/search', { json: NOTION_FIXTURES.searchResults }],
    ['POST', '/v1/databases', { json: NOTION_FIXTURES.database }],
  ]);
}
