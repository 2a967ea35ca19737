import type { ToolConfig } from '../types.js';
import { accessToken, bearer, may, need, oauth, toolFamily } from './define.js';
import { SCOPES } from './scopes.js';

/** Default ranges per operation (§5). */
export const SHEETS_DEFAULT_RANGE = { read: 'Sheet1!A1:Z1000', write: 'Sheet1!A2', update: 'Sheet1!A2', append: 'Sheet1' } as const;

const tool = toolFamily({
  baseUrl: 'https://sheets.googleapis.com/v4/spreadsheets/{spreadsheetId}/values/{range}',
  headers: bearer(),
  common: { accessToken: accessToken('Google Sheets'), spreadsheetId: need('string', 'user', 'The ID of the spreadsheet') },
  oauth: oauth('google-sheets', SCOPES.googleSheets),
});

const values = need('array', 'llm', 'The data as an array of rows, or an array of objects (header row plus rows)');
const valueInputOption = may('string', 'user', 'The format of the data to write (USER_ENTERED or RAW)', 'USER_ENTERED');
const range = (def: string) => may('string', 'llm', `The A1 notation range (default ${def})`, def);

/** Google Sheets value tools. */
export const googleSheetsTools: ToolConfig[] = [
  tool('google_sheets_read', 'Read from Google Sheets', 'Read data from a Google Sheets spreadsheet', 'GET', '', { range: range(SHEETS_DEFAULT_RANGE.read) }),
  tool('google_sheets_write', 'Write to Google Sheets', 'Write data to a Google Sheets spreadsheet', 'PUT', '?valueInputOption={valueInputOption}', {
    range: range(SHEETS_DEFAULT_RANGE.write), values, valueInputOption,
  }),
  tool('google_sheets_update', 'Update Google Sheets', 'Update data in a Google Sheets spreadsheet', 'PUT', '?valueInputOption={valueInputOption}', {
    range: range(SHEETS_DEFAULT_RANGE.update), values, valueInputOption,
  }),
  tool('google_sheets_append', 'Append to Google Sheets', 'Append data to the end of a Google Sheets spreadsheet', 'POST', ':append?valueInputOption={valueInputOption}&insertDataOption={insertDataOption}', {
    range: range(SHEETS_DEFAULT_RANGE.append), values, valueInputOption,
    insertDataOption: may('string', 'user', 'How new data is inserted (INSERT_ROWS or OVERWRITE)', 'INSERT_ROWS'),
  }),
];
