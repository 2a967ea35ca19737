import { firstText, operationTool, parseJson } from '../paramValues.js';
import { SCOPES } from '../tools/scopes.js';
import type { BlockConfig } from '../types.js';
import { credentialField, dropdown, longInput, operationField, selectorPair, shortInput, when } from './fields.js';

const TOOL_BY_OPERATION = { read: 'microsoft_excel_read', write: 'microsoft_excel_write', table_add: 'microsoft_excel_table_add' } as const;

/** Microsoft Excel: read and write ranges, add table rows. */
export const microsoftExcelBlock: BlockConfig = {
  type: 'microsoft_excel',
  name: 'Microsoft Excel',
  description: 'Read, write, and update data',
  longDescription:
    'Integrate Microsoft Excel workbooks to read and write ranges and add rows to tables. Reading defaults to Sheet1!A1:Z1000; values are entered as USER_ENTERED unless RAW is chosen.',
  docsLink: 'https://docs.weft.dev/tools/microsoft_excel',
  category: 'tools',
  bgColor: '#E0E0E0',
  icon: 'MicrosoftExcelIcon',
  subBlocks: [
    operationField([['read', 'Read Data'], ['write', 'Write/Update Data'], ['table_add', 'Add to Table']]),
    credentialField('microsoft-excel', 'microsoft-excel', 'Microsoft Account', SCOPES.microsoftExcel),
    ...selectorPair(
      { id: 'spreadsheetId', title: 'Select Sheet', type: 'file-selector', layout: 'full', provider: 'microsoft-excel', serviceId: 'microsoft-excel', placeholder: 'Select a spreadsheet' },
      { id: 'manualSpreadsheetId', title: 'Spreadsheet ID', placeholder: 'Enter spreadsheet ID' },
    ),
    shortInput('range', 'Range', 'Sheet name and cell range (e.g., Sheet1!A1:D10)', { condition: when('operation', ['read', 'write']) }),
    shortInput('tableName', 'Table Name', 'Name of the Excel table', { condition: when('operation', 'table_add') }),
    longInput('values', 'Values', 'Enter values as JSON array of arrays (e.g., [["A1", "B1"], ["A2", "B2"]])', { condition: when('operation', ['write', 'table_add']) }),
    dropdown('valueInputOption', 'Value Input Option', [['USER_ENTERED', 'User Entered (Parse formulas)'], ['RAW', "Raw (Don't parse formulas)"]], { condition: when('operation', 'write') }),
  ],
  tools: {
    access: Object.values(TOOL_BY_OPERATION),
    config: {
      tool: operationTool(TOOL_BY_OPERATION, (op) => `Invalid Microsoft Excel operation: ${op}`),
      params: ({ manualSpreadsheetId, values, ...rest }) => {
        const parsed = parseJson(values);
        return { ...rest, spreadsheetId: firstText(rest.spreadsheetId, manualSpreadsheetId), ...(values !== undefined && parsed.ok ? { values: parsed.value } : {}) };
      },
    },
  },
  inputs: {
    operation: { type: 'string', required: true },
    credential: { type: 'string', required: true },
    spreadsheetId: { type: 'string', required: false },
    manualSpreadsheetId: { type: 'string', required: false },
    range: { type: 'string', required: false },
    tableName: { type: 'string', required: false },
    values: { type: 'string', required: false },
    valueInputOption: { type: 'string', required: false },
  },
  outputs: {
    data: 'json', metadata: 'json', updatedRange: 'string', updatedRows: 'number', updatedColumns: 'number', updatedCells: 'number', index: 'number', values: 'json',
  },
};
