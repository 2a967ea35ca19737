import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from './api';

afterEach(() => {
  vi.unstubAllGlobals();
});

const answering = (status: number, body: unknown) => vi.stubGlobal('fetch', () => Promise.resolve(new Response(JSON.stringify(body), { status })));

describe('the deployed schedules (GET /api/schedules)', () => {
  it('reads an empty list as none, and keeps a 404 an error naming what is missing', async () => {
    answering(200, { schedules: [] });
    await expect(api.schedules('wf-1')).resolves.toEqual([]);
    answering(404, { error: 'Workflow wf-1 not found' });
    await expect(api.schedules('wf-1')).rejects.toEqual(expect.objectContaining({ status: 404, message: 'Workflow wf-1 not found' }));
    await expect(api.schedules('wf-1')).rejects.toBeInstanceOf(ApiError);
    answering(200, { id: 'wf-1', schedules: [{ blockId: 'start', status: 'active' }] });
    await expect(api.schedules('wf-1')).resolves.toEqual([{ blockId: 'start', status: 'active' }]);
  });
});

describe("the workspace's schedules (GET /api/schedules?workspaceId=)", () => {
  it('asks once for a workspace of one page, and follows nextCursor to the end of a longer one', async () => {
    const asked: string[] = [];
    const pages: Record<string, unknown> = {
      '': { schedules: [{ id: 'a:s' }, { id: 'a:n' }], nextCursor: 'c2' },
      c2: { schedules: [{ id: 'b:s' }], nextCursor: null },
    };
    vi.stubGlobal('fetch', (url: string) => {
      asked.push(url);
      const cursor = new URL(url, 'http://127.0.0.1').searchParams.get('cursor') ?? '';
      return Promise.resolve(new Response(JSON.stringify(pages[cursor]), { status: 200 }));
    });
    await expect(api.workspaceSchedules('ws 1')).resolves.toEqual([{ id: 'a:s' }, { id: 'a:n' }, { id: 'b:s' }]);
    expect(asked).toEqual(['/api/schedules?workspaceId=ws%201&limit=500', '/api/schedules?workspaceId=ws%201&limit=500&cursor=c2']);

    answering(403, { error: 'Access denied to workspace' });
    await expect(api.workspaceSchedules('ws-2')).rejects.toEqual(expect.objectContaining({ status: 403, message: 'Access denied to workspace' }));
  });
});
