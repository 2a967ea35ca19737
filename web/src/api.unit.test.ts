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
