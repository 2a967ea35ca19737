import { SUPABASE_FIXTURES, createFakeSupabase } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { supabaseTools } from './supabase.tools.js';

const sb = useFamily(createFakeSupabase, { supabase: '/{projectId}' }, supabaseTools);
const base = { projectId: 'proj1', table: 'people', apiKey: 'srk' };
const PATH = '/proj1/rest/v1/people';
const keyed = { apikey: 'srk', authorization: 'Bearer srk' };
/** A failed Supabase tool's output: its message and empty results (§8). */
const noResults = (message: string) => ({ message, results: [] });

describe('supabase', () => {

  it('supabase_query selects with filter, order and limit', async () => {
    const r = await sb.run('supabase_query', { ...base, filter: ' age=gt.30 ', orderBy: 'name DESC', limit: 5 });
    sb.expectRequest('supabase_query', 'GET', PATH, { headers: keyed, query: { select: '*', order: 'name.desc', limit: '5', age: 'gt.30' } });
    expect(r).toEqual({ success: true, output: { message: 'Successfully queried 2 row(s) from people', results: SUPABASE_FIXTURES.rows } });
    sb.fake.once('GET', '/:project/rest/v1/:table', { status: 401, text: 'Invalid API key' });
    await sb.expectError('supabase_query', base, 'Error from Supabase: 401 Invalid API key', noResults('Error from Supabase: 401 Invalid API key'));
  });

  it('supabase_get_row asks for one row', async () => {
    const r = await sb.run('supabase_get_row', { ...base, filter: 'id=eq.1' });
    sb.expectRequest('supabase_get_row', 'GET', PATH, { headers: keyed, query: { select: '*', limit: '1', id: 'eq.1' } });
    expect(r).toEqual({ success: true, output: { message: 'Successfully found row', results: [SUPABASE_FIXTURES.rows[0]] } });
    sb.fake.once('GET', '/:project/rest/v1/:table', { json: [] });
    expect(await sb.run('supabase_get_row', { ...base, filter: 'id=eq.9' })).toMatchObject({ success: true, output: { message: 'No row found matching the criteria', results: [] } });
    sb.fake.once('GET', '/:project/rest/v1/:table', { status: 400, json: { message: 'bad filter' } });
    await sb.expectError('supabase_get_row', { ...base, filter: 'x' }, 'Error from Supabase: 400 {"message":"bad filter"}', noResults('Error from Supabase: 400 {"message":"bad filter"}'));
  });

  it('supabase_insert wraps a single object and asks for the representation', async () => {
    const r = await sb.run('supabase_insert', { ...base, data: '{"name":"Cy"}' });
    sb.expectRequest('supabase_insert', 'POST', PATH, {
      headers: { ...keyed, prefer: 'return=representation', 'content-type': 'application/json' },
      query: { select: '*' },
      body: [{ name: 'Cy' }],
    });
    expect(r).toEqual({ success: true, output: { message: 'Successfully inserted 1 row(s) into people', results: [{ id: 100, name: 'Cy' }] } });
    await sb.expectError('supabase_insert', { ...base, data: '{oops' }, 'Invalid JSON data format', noResults('Invalid JSON data format'));
  });

  it('supabase_update patches the filtered rows', async () => {
    const r = await sb.run('supabase_update', { ...base, filter: 'id=eq.1', data: { age: 37 } });
    sb.expectRequest('supabase_update', 'PATCH', PATH, { headers: keyed, query: { select: '*', id: 'eq.1' }, body: { age: 37 } });
    expect(r).toMatchObject({ success: true, output: { message: 'Successfully updated 1 row(s) in people' } });
    sb.fake.once('PATCH', '/:project/rest/v1/:table', { status: 404, text: 'relation does not exist' });
    await sb.expectError('supabase_update', { ...base, filter: 'id=eq.1', data: {} }, 'Error from Supabase: 404 relation does not exist', noResults('Error from Supabase: 404 relation does not exist'));
  });

  it('supabase_delete needs a filter and deletes the filtered rows', async () => {
    await sb.expectError('supabase_delete', { ...base, filter: '  ' }, 'Filter is required for delete operations to prevent accidental deletion of all rows', noResults('Filter is required for delete operations to prevent accidental deletion of all rows'));
    expect(sb.fake.requests).toHaveLength(0);
    const r = await sb.run('supabase_delete', { ...base, filter: 'id=eq.1' });
    sb.expectRequest('supabase_delete', 'DELETE', PATH, { headers: keyed, query: { select: '*', id: 'eq.1' } });
    expect(r).toMatchObject({ success: true, output: { message: 'Successfully deleted 1 row(s) from people' } });
  });
});
