import { describe, expect, it } from 'vitest';
import type { ToolIO } from '../../tools/serviceTool.js';
import type { ListContext, SelectorLister } from './lister.js';
import { findSelected } from './lookup.js';
import type { SelectorItem, SelectorPage } from './paging.js';
import { providerClient } from './provider.js';

// findSelected with a lister whose get-by-id answers from a table, as a provider would: by the
// item's own id, or by an alias it takes (a Jira project's key) with the item under its own id.
const projects: Record<string, SelectorItem> = {
  '10001': { id: '10001', name: 'Operations', detail: 'OPS' },
  OPS: { id: '10001', name: 'Operations', detail: 'OPS' },
  F2: { id: 'F2', name: 'Invoices' },
};
const lister: SelectorLister = {
  provider: 'Fake',
  what: 'things',
  list: () => Promise.resolve({ items: [] }),
  get: (_ctx, id) => Promise.resolve(projects[id] ?? null),
};
// The lister above asks nothing of its client: one that would refuse any call stands in.
const io: ToolIO = { fetch: () => Promise.reject(new Error('no calls')), baseUrl: () => 'https://fake.example', context: { workspaceId: 'ws', workflowId: 'wf' }, envVars: {} };
const ctx: Pick<ListContext, 'client' | 'inputs'> = { client: providerClient('Fake', io, 'token'), inputs: {} };
const firstPage = (items: SelectorItem[]): { page: SelectorPage; fromStart: boolean } => ({ page: { items }, fromStart: true });

describe('the stored choice’s item (findSelected)', () => {
  it('answers an item found by an alias under the stored value, with the item’s own id as itemId', async () => {
    expect(await findSelected(lister, ctx, 'OPS', firstPage([]))).toEqual({ id: 'OPS', name: 'Operations', detail: 'OPS', itemId: '10001' });
  });

  it('answers an item found by its own id without itemId, so the web marks no other item of its name', async () => {
    expect(await findSelected(lister, ctx, 'F2', firstPage([{ id: 'F1', name: 'Invoices' }]))).toEqual({ id: 'F2', name: 'Invoices' });
    expect(await findSelected(lister, ctx, '10001', firstPage([]))).toEqual({ id: '10001', name: 'Operations', detail: 'OPS' });
    expect(await findSelected(lister, ctx, 'GONE', firstPage([]))).toBeNull();
  });
});
