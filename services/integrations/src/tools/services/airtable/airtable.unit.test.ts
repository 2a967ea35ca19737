import { AIRTABLE_FIXTURES, createFakeAirtable } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { airtableTools } from './airtable.tools.js';

const at = useFamily(createFakeAirtable, { airtable: '/v0' }, airtableTools);
const base = { accessToken: 'pat1', baseId: 'appB', tableId: 'Tasks' };

describe('airtable', () => {
  it('airtable_list_records sends maxRecords and filterByFormula', async () => {
    const r = await at.run('airtable_list_records', { ...base, maxRecords: '5', filterFormula: "{Status}='Done'" });
    at.expectRequest('airtable_list_records', 'GET', '/v0/appB/Tasks', { headers: { authorization: 'Bearer pat1' }, query: { maxRecords: '5', filterByFormula: "{Status}='Done'" } });
    expect(r).toEqual({ success: true, output: { records: AIRTABLE_FIXTURES.list.records, metadata: { offset: 'itr/rec2', totalRecords: 2 } } });
    at.fake.once('GET', '/v0/:base/:table', { status: 422, json: { error: { type: 'INVALID_FILTER_BY_FORMULA', message: 'The formula is invalid' } } });
    await at.expectError('airtable_list_records', base, 'Failed to list Airtable records: The formula is invalid');
  });

  it('airtable_get_record reads one record', async () => {
    const r = await at.run('airtable_get_record', { ...base, recordId: 'rec9' });
    at.expectRequest('airtable_get_record', 'GET', '/v0/appB/Tasks/rec9', { headers: { authorization: 'Bearer pat1' } });
    expect(r).toEqual({ success: true, output: { record: AIRTABLE_FIXTURES.record('rec9', { Name: 'Ada' }), metadata: { recordCount: 1 } } });
    at.fake.once('GET', '/v0/:base/:table/:id', { status: 404, json: { error: 'NOT_FOUND' } });
    await at.expectError('airtable_get_record', { ...base, recordId: 'x' }, 'Failed to get Airtable record: NOT_FOUND');
  });

  it('airtable_create_records posts parsed records', async () => {
    const r = await at.run('airtable_create_records', { ...base, records: '[{"fields":{"Name":"Cy"}}]' });
    at.expectRequest('airtable_create_records', 'POST', '/v0/appB/Tasks', { headers: { authorization: 'Bearer pat1', 'content-type': 'application/json' }, body: { records: [{ fields: { Name: 'Cy' } }] } });
    expect(r).toEqual({ success: true, output: { records: [AIRTABLE_FIXTURES.record('recNew1', { Name: 'Cy' })], metadata: { recordCount: 1 } } });
    at.fake.once('POST', '/v0/:base/:table', { status: 422, json: { error: { message: 'Unknown field name: "Nme"' } } });
    await at.expectError('airtable_create_records', { ...base, records: [{ fields: { Nme: 1 } }] }, 'Failed to create Airtable records: Unknown field name: "Nme"');
    const bad = await at.run('airtable_create_records', { ...base, records: '[{' });
    expect(bad.success === false && bad.error).toMatch(/^Invalid JSON input for create operation: /);
  });

  it('airtable_create_records sends more than 10 records in batches of 10, in order, and answers them all', async () => {
    const records = Array.from({ length: 23 }, (_, i) => ({ fields: { N: i } }));
    const r = await at.run('airtable_create_records', { ...base, records: JSON.stringify(records) });
    [records.slice(0, 10), records.slice(10, 20), records.slice(20)].forEach((batch, nth) => at.expectRequest('airtable_create_records', 'POST', '/v0/appB/Tasks', { nth, body: { records: batch } }));
    expect(r.success && (r.output as { records: Array<{ fields: unknown }> }).records.map((rec) => rec.fields)).toEqual(records.map((rec) => rec.fields));
    expect(r).toMatchObject({ output: { metadata: { recordCount: 23 } } });
  });

  it('airtable_create_records: a failed later batch says how many records were created before it', async () => {
    const records = Array.from({ length: 15 }, (_, i) => ({ fields: { N: i } }));
    // The newest once answers first: the first batch passes, the second fails.
    at.fake.once('POST', '/v0/:base/:table', { status: 422, json: { error: { message: 'Unknown field name: "N"' } } });
    at.fake.once('POST', '/v0/:base/:table', { json: { records: [] } });
    await at.expectError('airtable_create_records', { ...base, records }, 'Failed to create Airtable records: Unknown field name: "N" (10 of 15 records were created before it, in batches of 10)');
  });

  it('airtable_update_multiple_records patches more than 10 records in batches of 10', async () => {
    const records = Array.from({ length: 12 }, (_, i) => ({ id: `rec${i}`, fields: { Status: 'Done' } }));
    const r = await at.run('airtable_update_multiple_records', { ...base, records });
    at.expectRequest('airtable_update_multiple_records', 'PATCH', '/v0/appB/Tasks', { nth: 0, body: { records: records.slice(0, 10) } });
    at.expectRequest('airtable_update_multiple_records', 'PATCH', '/v0/appB/Tasks', { nth: 1, body: { records: records.slice(10) } });
    expect(r).toMatchObject({ success: true, output: { metadata: { recordCount: 12, updatedRecordIds: records.map((rec) => rec.id) } } });
    at.fake.once('PATCH', '/v0/:base/:table', { status: 403, json: { error: { message: 'Forbidden' } } });
    at.fake.once('PATCH', '/v0/:base/:table', { json: { records: [] } });
    await at.expectError('airtable_update_multiple_records', { ...base, records }, 'Failed to update Airtable records: Forbidden (10 of 12 records were updated before it, in batches of 10)');
  });

  it('airtable_update_record patches fields and lists the updated field names', async () => {
    const r = await at.run('airtable_update_record', { ...base, recordId: 'rec1', fields: { Status: 'Done', Points: 3 } });
    at.expectRequest('airtable_update_record', 'PATCH', '/v0/appB/Tasks/rec1', { headers: { authorization: 'Bearer pat1', 'content-type': 'application/json' }, body: { fields: { Status: 'Done', Points: 3 } } });
    expect(r).toMatchObject({ success: true, output: { record: { id: 'rec1', fields: { Status: 'Done' } }, metadata: { recordCount: 1, updatedFields: ['Status', 'Points'] } } });
    at.fake.once('PATCH', '/v0/:base/:table/:id', { status: 403, json: { error: { message: 'Forbidden' } } });
    await at.expectError('airtable_update_record', { ...base, recordId: 'rec1', fields: {} }, 'Failed to update Airtable record: Forbidden');
  });

  it('airtable_update_multiple_records patches many records', async () => {
    const records = [{ id: 'rec1', fields: { Status: 'Done' } }, { id: 'rec2', fields: { Status: 'Todo' } }];
    const r = await at.run('airtable_update_multiple_records', { ...base, records: JSON.stringify(records) });
    at.expectRequest('airtable_update_multiple_records', 'PATCH', '/v0/appB/Tasks', { headers: { authorization: 'Bearer pat1', 'content-type': 'application/json' }, body: { records } });
    expect(r).toMatchObject({ success: true, output: { metadata: { recordCount: 2, updatedRecordIds: ['rec1', 'rec2'] } } });
    at.fake.once('PATCH', '/v0/:base/:table', { status: 422, json: { error: { message: 'Too many records' } } });
    await at.expectError('airtable_update_multiple_records', { ...base, records }, 'Failed to update Airtable records: Too many records');
  });
});
