import { NOTION_FIXTURES, createFakeNotion } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { notionTools, pieces } from './notion.tools.js';

const no = useFamily(createFakeNotion, { notion: '/v1' }, notionTools);
const RAW = '1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d';
const ID = '1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d';
const headers = { authorization: 'Bearer secret_1', 'notion-version': '2022-06-28', 'content-type': 'application/json' };
const t = 'secret_1';

describe('notion', () => {
  it('notion_read formats the id, reads the page and its first 100 blocks', async () => {
    const r = await no.run('notion_read', { accessToken: t, pageId: RAW });
    no.expectRequest('notion_read', 'GET', `/v1/pages/${ID}`, { headers });
    no.expectRequest('notion_read', 'GET', `/v1/blocks/${ID}/children`, { headers, query: { page_size: '100' } });
    expect(r).toEqual({
      success: true,
      output: {
        content: '# Q3\n\nShip the builder.\n\n- Tools',
        metadata: { title: 'Roadmap', lastEditedTime: '2025-04-02T09:00:00.000Z', createdTime: '2025-04-01T09:00:00.000Z', url: NOTION_FIXTURES.page.url },
      },
    });
  });

  it('notion_read: API errors are prefixed, a blank token is refused', async () => {
    no.fake.once('GET', '/v1/pages/:id', { status: 404, json: { object: 'error', status: 404, code: 'object_not_found', message: 'Could not find page' } });
    await no.expectError('notion_read', { accessToken: t, pageId: ID }, 'Notion API error: Could not find page');
    await no.expectError('notion_read', { accessToken: ' ', pageId: ID }, 'Access token is required');
  });

  it('notion_read_database reads the database', async () => {
    const r = await no.run('notion_read_database', { accessToken: t, databaseId: 'db000000-0000-0000-0000-000000000001' });
    no.expectRequest('notion_read_database', 'GET', '/v1/databases/db000000-0000-0000-0000-000000000001', { headers });
    expect(r).toMatchObject({ success: true, output: { content: 'Database: Tasks\n\nProperties:\n- Name: title\n- Status: select', metadata: { title: 'Tasks', id: NOTION_FIXTURES.database.id } } });
    no.fake.once('GET', '/v1/databases/:id', { status: 401, json: { message: 'API token is invalid.' } });
    await no.expectError('notion_read_database', { accessToken: t, databaseId: 'x' }, 'Notion API error: API token is invalid.');
  });

  it('notion_write appends a paragraph', async () => {
    const r = await no.run('notion_write', { accessToken: t, pageId: RAW, content: 'More text' });
    no.expectRequest('notion_write', 'PATCH', `/v1/blocks/${ID}/children`, {
      headers,
      body: { children: [{ object: 'block', type: 'paragraph', paragraph: { rich_text: [{ type: 'text', text: { content: 'More text' } }] } }] },
    });
    expect(r).toEqual({ success: true, output: { content: 'Successfully appended content to Notion page' } });
    no.fake.once('PATCH', '/v1/blocks/:id/children', { status: 400, json: { message: 'body failed validation' } });
    await no.expectError('notion_write', { accessToken: t, pageId: ID, content: 'x' }, 'Notion API error: body failed validation');
  });

  it('notion_write cuts long content into rich_text items of at most 2000 characters (Notion refuses longer ones)', async () => {
    const content = `${'a'.repeat(2000)}${'b'.repeat(2000)}${'c'.repeat(500)}`;
    const r = await no.run('notion_write', { accessToken: t, pageId: ID, content });
    const items = ['a', 'b'].map((c) => ({ type: 'text', text: { content: c.repeat(2000) } }));
    no.expectRequest('notion_write', 'PATCH', `/v1/blocks/${ID}/children`, {
      body: { children: [{ object: 'block', type: 'paragraph', paragraph: { rich_text: [...items, { type: 'text', text: { content: 'c'.repeat(500) } }] } }] },
    });
    expect(r).toEqual({ success: true, output: { content: 'Successfully appended content to Notion page' } });
  });

  it('notion_write appends in batches within 500 KB a request (Notion answers 413 past it), and a failed batch says how many were written', async () => {
    // 5 paragraphs of 100 full items (about 204 KB each), then one more paragraph: two paragraphs a request.
    const content = `${'x'.repeat(5 * 100 * 2000)}tail`;
    expect(await no.run('notion_write', { accessToken: t, pageId: ID, content })).toMatchObject({ success: true });
    const reqs = no.fake.received('PATCH', `/v1/blocks/${ID}/children`);
    const sent = reqs.map((req) => (req.body as { children: Array<{ paragraph: { rich_text: unknown[] } }> }).children);
    expect(sent.map((children) => children.length)).toEqual([2, 2, 2]);
    expect(reqs.every((req) => req.bytes.length <= 450_000)).toBe(true);
    expect(sent[0]?.every((b) => b.paragraph.rich_text.length === 100)).toBe(true);
    expect(sent[2]?.[1]).toEqual({ object: 'block', type: 'paragraph', paragraph: { rich_text: [{ type: 'text', text: { content: 'tail' } }] } });
    no.expectRequest('notion_write', 'PATCH', `/v1/blocks/${ID}/children`, { nth: 2, headers, body: { children: sent[2] } });
    // The newest once answers first: the first batch passes, the second fails.
    no.fake.once('PATCH', '/v1/blocks/:id/children', { status: 400, json: { message: 'Block is archived' } });
    no.fake.once('PATCH', '/v1/blocks/:id/children', { json: { object: 'list', results: [] } });
    await no.expectError('notion_write', { accessToken: t, pageId: ID, content }, 'Notion API error: Block is archived (2 of 6 blocks were written before it)');
  });

  it('notion_write keeps a paragraph of multi-byte text within one request: 100 items of 2000 three-byte characters would be 600 KB', async () => {
    const content = '語'.repeat(100 * 2000);
    expect(await no.run('notion_write', { accessToken: t, pageId: ID, content })).toMatchObject({ success: true });
    const reqs = no.fake.received('PATCH', `/v1/blocks/${ID}/children`);
    expect(reqs.length).toBeGreaterThan(1);
    expect(reqs.every((req) => req.bytes.length <= 450_000)).toBe(true);
    const blocks = reqs.flatMap((req) => (req.body as { children: Array<{ paragraph: { rich_text: Array<{ text: { content: string } }> } }> }).children);
    expect(blocks.flatMap((b) => b.paragraph.rich_text.map((item) => item.text.content)).join('')).toBe(content);
  });

  it('pieces never cuts an emoji (a surrogate pair) across the 2000-unit boundary', () => {
    const content = `${'a'.repeat(1999)}😀${'b'.repeat(3)}`;
    const cut = pieces(content, 2000);
    expect(cut).toEqual(['a'.repeat(1999), `😀${'b'.repeat(3)}`]);
    expect(cut.join('')).toBe(content);
    expect(pieces(`${'a'.repeat(1998)}😀b`, 2000)).toEqual([`${'a'.repeat(1998)}😀`, 'b']);
  });

  it('notion_create_page sends long content within the limits, the rest appended to the new page; a failed append names the created page', async () => {
    const content = `${'y'.repeat(3 * 100 * 2000)}${'z'.repeat(2001)}`;
    expect(await no.run('notion_create_page', { accessToken: t, parentId: ID, title: 'Long', content })).toMatchObject({ success: true });
    const created = no.only('POST', '/v1/pages');
    expect((created.body as { children: unknown[] }).children).toHaveLength(2);
    expect(created.bytes.length).toBeLessThanOrEqual(500_000);
    const appended = (no.only('PATCH', `/v1/blocks/${NOTION_FIXTURES.page.id}/children`).body as { children: unknown[] }).children;
    no.expectRequest('notion_create_page', 'PATCH', `/v1/blocks/${NOTION_FIXTURES.page.id}/children`, { headers, body: { children: appended } });
    expect(appended).toHaveLength(2);
    expect(appended[1]).toEqual({
      object: 'block',
      type: 'paragraph',
      paragraph: { rich_text: [{ type: 'text', text: { content: 'z'.repeat(2000) } }, { type: 'text', text: { content: 'z' } }] },
    });
    no.fake.once('PATCH', '/v1/blocks/:id/children', { status: 400, json: { message: 'Block is archived' } });
    await no.expectError(
      'notion_create_page',
      { accessToken: t, parentId: ID, title: 'Long', content },
      `Notion API error: Block is archived (2 of 4 blocks were written before it; the page was created: id ${NOTION_FIXTURES.page.id}, url ${NOTION_FIXTURES.page.url})`,
    );
  });

  it('notion_create_page creates a titled page under the parent with its content', async () => {
    const r = await no.run('notion_create_page', { accessToken: t, parentId: RAW, title: 'Roadmap', content: 'Hello' });
    no.expectRequest('notion_create_page', 'POST', '/v1/pages', {
      headers,
      body: {
        parent: { type: 'page_id', page_id: ID },
        properties: { title: { type: 'title', title: [{ type: 'text', text: { content: 'Roadmap' } }] } },
        children: [{ object: 'block', type: 'paragraph', paragraph: { rich_text: [{ type: 'text', text: { content: 'Hello' } }] } }],
      },
    });
    expect(r).toMatchObject({ success: true, output: { content: 'Successfully created page "Roadmap"', metadata: { pageId: ID, url: NOTION_FIXTURES.page.url } } });
    no.fake.once('POST', '/v1/pages', { status: 403, json: { message: 'Insufficient permissions' } });
    await no.expectError('notion_create_page', { accessToken: t, parentId: ID }, 'Notion API error: Insufficient permissions');
  });

  it('notion_query_database sends parsed filter and sorts with page size at most 100', async () => {
    const filter = { property: 'Status', select: { equals: 'Done' } };
    const r = await no.run('notion_query_database', { accessToken: t, databaseId: RAW, filter: JSON.stringify(filter), sorts: '[{"property":"Name","direction":"ascending"}]', pageSize: 500 });
    no.expectRequest('notion_query_database', 'POST', `/v1/databases/${ID}/query`, { headers, body: { page_size: 100, filter, sorts: [{ property: 'Name', direction: 'ascending' }] } });
    expect(r).toMatchObject({ success: true, output: { metadata: { totalResults: 1, hasMore: true, nextCursor: 'cursor-2' } } });
    expect(r.success && (r.output as { content: string }).content).toContain('1. Write docs (page)');
    no.fake.once('POST', '/v1/databases/:id/query', { status: 400, json: { message: 'Could not find property with name or id: Stage' } });
    await no.expectError('notion_query_database', { accessToken: t, databaseId: ID }, 'Notion API error: Could not find property with name or id: Stage');
  });

  it('notion_query_database refuses bad filter and sorts JSON', async () => {
    const bad = await no.run('notion_query_database', { accessToken: t, databaseId: ID, filter: '{oops' });
    expect(bad.success === false && bad.error).toMatch(/^Invalid filter JSON: /);
    const badSorts = await no.run('notion_query_database', { accessToken: t, databaseId: ID, sorts: '[' });
    expect(badSorts.success === false && badSorts.error).toMatch(/^Invalid sorts JSON: /);
    expect(no.fake.received('POST', '/v1/databases/:id/query')).toHaveLength(0);
  });

  it('notion_search filters by object type only for page or database', async () => {
    const r = await no.run('notion_search', { accessToken: t, query: 'Roadmap', filterType: 'database' });
    no.expectRequest('notion_search', 'POST', '/v1/search', { headers, body: { page_size: 100, query: 'Roadmap', filter: { value: 'database', property: 'object' } } });
    expect(r).toMatchObject({ success: true, output: { metadata: { totalResults: 1, hasMore: false, nextCursor: null } } });
    await no.run('notion_search', { accessToken: t, filterType: 'all', pageSize: 5 });
    no.expectRequest('notion_search', 'POST', '/v1/search', { headers, body: { page_size: 5 } });
    no.fake.once('POST', '/v1/search', { status: 400, json: { message: 'body.filter.value should be "page" or "database"' } });
    await no.expectError('notion_search', { accessToken: t }, 'Notion API error: body.filter.value should be "page" or "database"');
    // §8 has no Notion rate-limit message: a 429 is raised to the execution layer as retryable
    no.fake.once('POST', '/v1/search', { status: 429, json: { message: 'Rate limited' } });
    expect(await no.run('notion_search', { accessToken: t })).toEqual({ success: false, output: {}, error: 'HTTP error 429: Too Many Requests' });
  });

  it('notion_create_database defaults to one title property Name', async () => {
    const r = await no.run('notion_create_database', { accessToken: t, parentId: RAW, title: 'Tasks' });
    no.expectRequest('notion_create_database', 'POST', '/v1/databases', {
      headers,
      body: { parent: { type: 'page_id', page_id: ID }, title: [{ type: 'text', text: { content: 'Tasks' } }], properties: { Name: { title: {} } } },
    });
    expect(r).toMatchObject({ success: true, output: { content: 'Successfully created database "Tasks"', metadata: { id: NOTION_FIXTURES.database.id } } });
    const bad = await no.run('notion_create_database', { accessToken: t, parentId: RAW, title: 'T', properties: '{x' });
    expect(bad.success === false && bad.error).toMatch(/^Invalid properties JSON: /);
    no.fake.once('POST', '/v1/databases', { status: 400, json: { message: 'Title is not a property that exists.' } });
    await no.expectError('notion_create_database', { accessToken: t, parentId: RAW, title: 'T' }, 'Notion API error: Title is not a property that exists.');
  });
});
