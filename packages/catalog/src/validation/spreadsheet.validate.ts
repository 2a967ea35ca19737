import { firstText, parseJson, text } from '../paramValues.js';

/** Shared by Sheets and Excel when neither the picker nor the manual id gives a spreadsheet. */
export const SPREADSHEET_REQUIRED = 'Spreadsheet ID is required. Please select a spreadsheet or enter an ID manually.';

/** Values must parse as JSON when given as text. */
function valuesError(values: unknown): string | undefined {
  if (values === undefined || text(values) === '') return undefined;
  return parseJson(values).ok ? undefined : 'Invalid JSON format for values';
}

/** A Microsoft range like Sheet1!A1:B2 (or Sheet1!A1). */
const RANGE = /^[^!]+![A-Za-z]+\d+(:[A-Za-z]+\d+)?$/;

/** Google Sheets: a spreadsheet id; values as JSON. */
export function validateGoogleSheets(params: Record<string, unknown>): string | undefined {
  if (firstText(params.spreadsheetId, params.manualSpreadsheetId) === '') return SPREADSHEET_REQUIRED;
  return valuesError(params.values);
}

/** Microsoft Excel: JSON values, a spreadsheet id, a table name for table operations, a well-formed range. */
export function validateMicrosoftExcel(params: Record<string, unknown>): string | undefined {
  const values = valuesError(params.values);
  if (values) return values;
  if (firstText(params.spreadsheetId, params.manualSpreadsheetId) === '') return SPREADSHEET_REQUIRED;
  if (params.operation === 'table_add' && text(params.tableName) === '') return 'Table name is required for table operations.';
  const range = text(params.range);
  if (params.operation !== 'table_add' && range !== '' && !RANGE.test(range)) return 'Invalid range format';
  return undefined;
}
