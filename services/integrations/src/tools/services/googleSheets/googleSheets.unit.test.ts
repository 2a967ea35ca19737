import { GOOGLE_FIXTURES, createFakeGoogle } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { googleSheetsTools } from './googleSheets.tools.js';

const gs = useFamily(createFakeGoogle, { googleSheets: '/v4/spreadsheets' }, googleSheetsTools);
const base = { accessToken: 'ya29', spreadsheetId: 'sheet-1' };
const values = (range: string) => `/v4/spreadsheets/sheet-1/values/${encodeURIComponent(range)}`;
const metadata = { spreadsheetId: 'sheet-1', spreadsheetUrl: 'https://docs.google.com/spreadsheets/d/sheet-1' };

describe('google sheets', () => {
  it('google_sheets_read reads the default range Sheet1!A1:Z1000', async () => {
    const r = await gs.run('google_sheets_read', base);
    gs.expectRequest('google_sheets_read', 'GET', values('Sheet1!A1:Z1000'), { headers: { authorization: 'Bearer ya29' } });
    expect(r).toEqual({ success: true, output: { data: { range: 'Sheet1!A1:B2', values: GOOGLE_FIXTURES.sheetValues.values }, metadata } });
  });

  it('google_sheets_read passes the API message with a Failed prefix', async () => {
    gs.fake.once('GET', '/v4/spreadsheets/:id/values/:range', { status: 404, json: { error: { code: 404, message: 'Requested entity was not found.' } } });
    await gs.expectError('google_sheets_read', { ...base, range: 'Other!A1' }, 'Failed to read Google Sheets data: Requested entity was not found.');
  });

  it('google_sheets_write turns objects into header plus rows, default Sheet1!A2 and USER_ENTERED', async () => {
    const r = await gs.run('google_sheets_write', { ...base, values: JSON.stringify([{ name: 'Ada', age: 36 }, { name: 'Bob', city: 'Oslo' }]) });
    gs.expectRequest('google_sheets_write', 'PUT', values('Sheet1!A2'), {
      headers: { authorization: 'Bearer ya29', 'content-type': 'application/json' },
      query: { valueInputOption: 'USER_ENTERED' },
      body: { majorDimension: 'ROWS', range: 'Sheet1!A2', values: [['name', 'age', 'city'], ['Ada', 36, ''], ['Bob', '', 'Oslo']] },
    });
    expect(r).toEqual({ success: true, output: { updatedRange: 'Sheet1!A2:B3', updatedRows: 2, updatedColumns: 2, updatedCells: 4, metadata } });
    await gs.expectError('google_sheets_write', { ...base, values: '[oops' }, 'Invalid JSON format for values');
  });

  it('google_sheets_update writes rows as given with RAW', async () => {
    const r = await gs.run('google_sheets_update', { ...base, range: 'Data!B2', values: [['x', 1]], valueInputOption: 'RAW' });
    gs.expectRequest('google_sheets_update', 'PUT', values('Data!B2'), {
      headers: { authorization: 'Bearer ya29' },
      query: { valueInputOption: 'RAW' },
      body: { majorDimension: 'ROWS', range: 'Data!B2', values: [['x', 1]] },
    });
    expect(r.success).toBe(true);
    gs.fake.once('PUT', '/v4/spreadsheets/:id/values/:range', { status: 403, json: { error: { message: 'The caller does not have permission' } } });
    await gs.expectError('google_sheets_update', { ...base, values: [['a']] }, 'Failed to update data in Google Sheets: The caller does not have permission');
  });

  it('google_sheets_append appends to Sheet1 with INSERT_ROWS', async () => {
    const r = await gs.run('google_sheets_append', { ...base, values: [['Cy', 41]] });
    gs.expectRequest('google_sheets_append', 'POST', values('Sheet1:append').replace('%3A', ':'), {
      headers: { authorization: 'Bearer ya29' },
      query: { valueInputOption: 'USER_ENTERED', insertDataOption: 'INSERT_ROWS' },
      body: { majorDimension: 'ROWS', values: [['Cy', 41]] },
    });
    expect(r).toEqual({ success: true, output: { tableRange: 'Sheet1!A1:B3', updatedRange: 'Sheet1!A4:B4', updatedRows: 1, updatedColumns: 2, updatedCells: 2, metadata } });
    gs.fake.once('POST', '/v4/spreadsheets/:id/values/:range', { status: 400, json: { error: { message: 'Unable to parse range' } } });
    await gs.expectError('google_sheets_append', { ...base, values: [['a']], insertDataOption: 'OVERWRITE' }, 'Failed to append data to Google Sheets: Unable to parse range');
  });
});
