import type { ToolConfig } from '../types.js';
import { accessToken, bearer, may, need, oauth, toolFamily } from './define.js';
import { SCOPES } from './scopes.js';

/** Excel defaults (§7): read range, value input option, major dimension. */
export const EXCEL_DEFAULTS = { readRange: 'Sheet1!A1:Z1000', valueInputOption: 'USER_ENTERED', majorDimension: 'ROWS' } as const;

const tool = toolFamily({
  baseUrl: 'https://graph.microsoft.com/v1.0/me/drive/items/{spreadsheetId}/workbook',
  headers: bearer(),
  common: { accessToken: accessToken('Microsoft Excel'), spreadsheetId: need('string', 'user', 'The ID of the spreadsheet') },
  oauth: oauth('microsoft-excel', SCOPES.microsoftExcel),
});

const values = need('array', 'llm', 'The rows to write, or an array of objects (header row plus rows)');

/** Excel range and table tools over Microsoft Graph. */
export const microsoftExcelTools: ToolConfig[] = [
  tool('microsoft_excel_read', 'Read from Microsoft Excel', 'Read data from a Microsoft Excel spreadsheet', 'GET', "/worksheets('{sheet}')/range(address='{address}')", {
    range: may('string', 'llm', 'The range to read, like Sheet1!A1:B2', EXCEL_DEFAULTS.readRange),
  }),
  tool('microsoft_excel_write', 'Write to Microsoft Excel', 'Write data to a Microsoft Excel spreadsheet', 'PATCH', "/worksheets('{sheet}')/range(address='{address}')", {
    range: may('string', 'llm', 'The range to write to, like Sheet1!A1:B2'),
    values,
    valueInputOption: may('string', 'user', 'The format of the data to write', EXCEL_DEFAULTS.valueInputOption),
    includeValuesInResponse: may('boolean', 'user', 'Whether to include the written values in the response', false),
  }),
  tool('microsoft_excel_table_add', 'Add to Microsoft Excel Table', 'Add new rows to a Microsoft Excel table', 'POST', '/tables/{tableName}/rows/add', {
    tableName: need('string', 'user', 'The name of the table to add rows to'),
    values: need('array', 'llm', 'The rows to add (a flat row is wrapped as one row; objects become value rows)'),
  }),
];
