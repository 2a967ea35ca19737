import { beforeAll, describe, expect, it } from 'vitest';
import { api, defaultCookie } from './support/http.js';
import { createAccount } from './support/accounts.js';

// Embeddings come from the stack's OpenAI fake (WEFT_OPENAI_BASE_URL, globalSetup); the owner's own
// OPENAI_API_KEY environment variable is the key the knowledge routes embed with.
type Search = { results: Array<{ content: string; documentName: string; similarity: number }>; query: string; totalResults: number; cost: { total: number } };

let workspaceId = '';

beforeAll(async () => {
  const listed = await api<{ workspaces: Array<{ id: string }> }>('GET', '/api/workspaces');
  workspaceId = listed.body.workspaces[0]?.id ?? '';
  expect(workspaceId).not.toBe('');
  expect((await api('POST', '/api/environment', { variables: { OPENAI_API_KEY: 'sk-knowledge-e2e' } })).status).toBe(200);
});

describe('knowledge bases through the gateway', () => {
  it('creates a knowledge base, adds a document, searches it; another account is refused; a reader may search but not write', async () => {
    const created = await api<{ knowledgeBase: { id: string; workspaceId: string } }>('POST', '/api/knowledge', { workspaceId, name: 'Team handbook' });
    expect(created.status).toBe(201);
    const id = created.body.knowledgeBase.id;
    expect(created.body.knowledgeBase.workspaceId).toBe(workspaceId);

    const added = await api<{ documentsCreated: Array<{ id: string; name: string; chunkCount: number }> }>('POST', `/api/knowledge/${id}/documents`, {
      documents: [{ filename: 'holidays.md', fileUrl: `data:text/markdown,${encodeURIComponent('# Holidays\n\nEveryone gets 25 days of holiday a year.')}`, mimeType: 'text/markdown', tag1: 'hr' }],
      processingOptions: { chunkSize: 1024, minCharactersPerChunk: 100, chunkOverlap: 200, recipe: 'default', lang: 'en' },
      bulk: true,
    });
    expect(added.status).toBe(201);
    expect(added.body.documentsCreated).toMatchObject([{ name: 'holidays.md', chunkCount: 1 }]);
    expect((await api('POST', `/api/knowledge/${id}/documents`, { name: 'notes', content: 'Lunch is served at noon every day.' })).status).toBe(201);

    const found = await api<Search>('POST', '/api/knowledge/search', { knowledgeBaseIds: id, query: '# Holidays and leave', topK: 5, filters: { tag1: 'hr' } });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ query: '# Holidays and leave', totalResults: 1, results: [{ documentName: 'holidays.md', content: expect.stringContaining('25 days') }] });
    expect(found.body.results[0]!.similarity).toBeCloseTo(1, 5);
    expect(Object.keys(found.body.cost)).toEqual(expect.arrayContaining(['input', 'output', 'total']));
    expect(await api('POST', '/api/knowledge/search', { query: 'x' })).toEqual({ status: 400, body: { success: false, error: 'Knowledge base IDs are required for search' } });
    expect((await api('GET', `/api/knowledge?workspaceId=${workspaceId}`)).body).toMatchObject({ knowledgeBases: [{ id, documentCount: 2 }] });

    // Another account sees none of it.
    const stranger = await createAccount('Knowledge stranger');
    const as = (who: { cookie: string }) => ({ cookie: who.cookie });
    for (const [method, path, body] of [
      ['GET', `/api/knowledge/${id}`, undefined],
      ['GET', `/api/knowledge?workspaceId=${workspaceId}`, undefined],
      ['POST', '/api/knowledge', { workspaceId, name: 'Intruder' }],
      ['POST', `/api/knowledge/${id}/documents`, { name: 'x', content: 'long enough content' }],
      ['POST', '/api/knowledge/search', { knowledgeBaseIds: [id], query: 'holiday' }],
      ['DELETE', `/api/knowledge/${id}`, undefined],
    ] as const) {
      expect((await api(method, path, body, as(stranger))).status, `${method} ${path}`).toBe(403);
    }
    expect((await api('GET', `/api/knowledge/${id}`, undefined, { cookie: '' })).status).toBe(401);
    expect(await api('GET', '/api/knowledge/no-such-base')).toEqual({ status: 404, body: expect.objectContaining({ error: 'Knowledge base not found: no-such-base' }) });

    // A reader of the workspace may search (embedding the query with their own key) but not add.
    const reader = await createAccount('Knowledge reader');
    expect((await api('POST', '/api/environment', { variables: { OPENAI_API_KEY: 'sk-reader-e2e' } }, as(reader))).status).toBe(200);
    expect((await api('POST', `/api/workspaces/${workspaceId}/members`, { email: reader.email, permission: 'read' }, { cookie: await defaultCookie() })).status).toBe(201);
    expect((await api<Search>('POST', '/api/knowledge/search', { knowledgeBaseIds: [id], query: 'Lunch' }, as(reader))).body.totalResults).toBe(2);
    expect(await api('POST', `/api/knowledge/${id}/documents`, { name: 'x', content: 'long enough content' }, as(reader))).toEqual({ status: 403, body: expect.objectContaining({ error: 'This action needs write permission in the workspace' }) });

    // The knowledge tools through the proxy run in the named workflow's workspace.
    const wf = await api<{ id: string }>('POST', '/api/workflows', { workspaceId });
    const tool = await api<{ success: boolean; output: Search }>('POST', '/api/proxy', { toolId: 'knowledge_search', params: { knowledgeBaseIds: id, query: 'Lunch is', topK: 1 }, workflowId: wf.body.id });
    expect(tool.body).toMatchObject({ success: true, output: { totalResults: 1, results: [{ documentName: 'notes.txt' }] } });

    expect((await api('DELETE', `/api/knowledge/${id}`)).body).toEqual({ success: true });
    expect((await api('GET', `/api/knowledge/${id}`)).status).toBe(404);
  });
});
