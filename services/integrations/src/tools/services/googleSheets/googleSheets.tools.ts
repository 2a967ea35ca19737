import { SHEETS_DEFAULT_RANGE, parseJson, text } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { apiMessage, bearer, call, list, obj, seg, serviceTool, type CallSpec, type Obj } from '../http.js';

async function sheets(io: ToolIO, p: Obj, suffix: string, failure: string, spec: Omit<CallSpec, 'url'> = {}): Promise<Obj> {
  const res = await call(io, { ...spec, url: `${io.baseUrl('googleSheets')}/${seg(text(p.spreadsheetId))}/values/${suffix}`, headers: bearer(p.accessToken) });
  if (!res.ok) throw new ToolError(`${failure}: ${apiMessage(res)}`, res.status);
  return obj(res.data);
}

/** Values as rows: JSON text parsed; an array of objects becomes a header row plus one row per object (§5). */
export function toRows(values: unknown): unknown[][] {
  const parsed = parseJson(values);
  if (!parsed.ok) throw new ToolError('Invalid JSON format for values');
  const rows = list(parsed.value);
  if (rows.length > 0 && rows.every((r) => typeof r === 'object' && r !== null && !Array.isArray(r))) {
    const header = [...new Set(rows.flatMap((r) => Object.keys(obj(r))))];
    return [header, ...rows.map((r) => header.map((h) => obj(r)[h] ?? ''))];
  }
  return rows.map((r) => (Array.isArray(r) ? r : [r]));
}

const metadata = (p: Obj) => ({ spreadsheetId: text(p.spreadsheetId), spreadsheetUrl: `https://docs.google.com/spreadsheets/d/${text(p.spreadsheetId)}` });
const range = (p: Obj, def: string) => text(p.range) || def;
const inputOption = (p: Obj) => text(p.valueInputOption) || 'USER_ENTERED';

function write(kind: 'write' | 'update') {
  return serviceTool(`google_sheets_${kind}`, async (p, io) => {
    const r = range(p, SHEETS_DEFAULT_RANGE[kind]);
    const d = await sheets(io, p, seg(r), kind === 'write' ? 'Failed to write data to Google Sheets' : 'Failed to update data in Google Sheets', {
      method: 'PUT',
      query: { valueInputOption: inputOption(p) },
      json: { majorDimension: 'ROWS', values: toRows(p.values), range: r },
    });
    return { updatedRange: d.updatedRange, updatedRows: d.updatedRows, updatedColumns: d.updatedColumns, updatedCells: d.updatedCells, metadata: metadata(p) };
  });
}

/** Google Sheets value tools: read, write, update, append. */
export const googleSheetsTools: ServiceTool[] = [
  serviceTool('google_sheets_read', async (p, io) => {
    const d = await sheets(io, p, seg(range(p, SHEETS_DEFAULT_RANGE.read)), 'Failed to read Google Sheets data');
    return { data: { range: d.range, values: list(d.values) }, metadata: metadata(p) };
  }),
  write('write'),
  write('update'),
  serviceTool('google_sheets_append', async (p, io) => {
    const d = await sheets(io, p, `${seg(range(p, SHEETS_DEFAULT_RANGE.append))}:append`, 'Failed to append data to Google Sheets', {
      method: 'POST',
      query: { valueInputOption: inputOption(p), insertDataOption: text(p.insertDataOption) || 'INSERT_ROWS' },
      json: { majorDimension: 'ROWS', values: toRows(p.values) },
    });
    const u = obj(d.updates);
    return { tableRange: d.tableRange, updatedRange: u.updatedRange, updatedRows: u.updatedRows, updatedColumns: u.updatedColumns, updatedCells: u.updatedCells, metadata: metadata(p) };
  }),
];
