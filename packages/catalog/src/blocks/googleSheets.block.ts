import { firstText, operationTool, parseJson } from '../paramValues.js';
import { SCOPES } from '../tools/scopes.js';
import type { BlockConfig } from '../types.js';
import { credentialField, dropdown, longInput, operationField, selectorPair, shortInput, when } from './fields.js';

const TOOL_BY_OPERATION = { read: 'google_sheets_read', write: 'google_sheets_write', update: 'google_sheets_update', append: 'google_sheets_append' } as const;
const WRITES = ['write', 'update', 'append'];

/** Google Sheets: read, write, update and append ranges. */
export const googleSheetsBlock: BlockConfig = {
  type: 'google_sheets',
  name: 'Google Sheets',
  description: 'Read, write, and update data',
  longDescription:
    'Integrate Google Sheets to read, write, update and append rows. Values are a JSON array of rows, or an array of objects that becomes a header row plus rows.',
  docsLink: 'https://docs.weft.dev/tools/google_sheets',
  category: 'tools',
  bgColor: '#E0E0E0',
  icon: 'GoogleSheetsIcon',
  subBlocks: [
    operationField([['read', 'Read Data'], ['write', 'Write Data'], ['update', 'Update Data'], ['append', 'Append Data']]),
    credentialField('google-sheets', 'google-sheets', 'Google Account', SCOPES.googleSheets),
    ...selectorPair(
      { id: 'spreadsheetId', title: 'Select Sheet', type: 'file-selector', layout: 'full', provider: 'google-drive', serviceId: 'google-drive', placeholder: 'Select a spreadsheet' },
      { id: 'manualSpreadsheetId', title: 'Spreadsheet ID', placeholder: 'ID of the spreadsheet (from URL)' },
    ),
    shortInput('range', 'Range', 'Sheet name and cell range (e.g., Sheet1!A1:D10)'),
    longInput('values', 'Values', 'Enter values as JSON array of arrays (e.g., [["A1", "B1"], ["A2", "B2"]])', { condition: when('operation', WRITES) }),
    dropdown('valueInputOption', 'Value Input Option', [['USER_ENTERED', 'User Entered (Parse formulas)'], ['RAW', "Raw (Don't parse formulas)"]], { condition: when('operation', WRITES) }),
    dropdown('insertDataOption', 'Insert Data Option', [['INSERT_ROWS', 'Insert Rows (Add new rows)'], ['OVERWRITE', 'Overwrite (Add to existing data)']], { condition: when('operation', 'append') }),
  ],
  tools: {
    access: Object.values(TOOL_BY_OPERATION),
    config: {
      tool: operationTool(TOOL_BY_OPERATION, (op) => `Invalid Google Sheets operation: ${op}`),
      params: ({ manualSpreadsheetId, values, ...rest }) => {
        const parsed = parseJson(values);
        return {
          ...rest,
          spreadsheetId: firstText(rest.spreadsheetId, manualSpreadsheetId),
          ...(values !== undefined && parsed.ok ? { values: parsed.value } : {}),
        };
      },
    },
  },
  inputs: {
    operation: { type: 'string', required: true },
    credential: { type: 'string', required: true },
    spreadsheetId: { type: 'string', required: false },
    manualSpreadsheetId: { type: 'string', required: false },
    range: { type: 'string', required: false },
    values: { type: 'string', required: false },
    valueInputOption: { type: 'string', required: false },
    insertDataOption: { type: 'string', required: false },
  },
  outputs: {
    data: 'json', metadata: 'json', updatedRange: 'string', updatedRows: 'number', updatedColumns: 'number', updatedCells: 'number', tableRange: 'string',
  },
};
