import { parseJson, text, toInt } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { apiMessage, bearer, call, list, obj, seg, serviceTool, type CallSpec, type Obj } from '../http.js';

async function airtable(io: ToolIO, p: Obj, suffix: string, failure: string, spec: Omit<CallSpec, 'url'> = {}): Promise<Obj> {
  const url = `${io.baseUrl('airtable')}/${seg(text(p.baseId))}/${seg(text(p.tableId))}${suffix}`;
  const res = await call(io, { ...spec, url, headers: bearer(p.accessToken) });
  if (!res.ok) throw new ToolError(`${failure}: ${apiMessage(res)}`, res.status);
  return obj(res.data);
}

/** A JSON parameter (text parsed); failure throws §5's `Invalid JSON input for {op} operation: …`. */
function jsonParam(value: unknown, op: string): unknown {
  const parsed = parseJson(value);
  if (!parsed.ok) throw new ToolError(`Invalid JSON input for ${op} operation: ${parsed.error}`);
  return parsed.value;
}

/** Airtable record tools: list, get, create, update one, update many. */
export const airtableTools: ServiceTool[] = [
  serviceTool('airtable_list_records', async (p, io) => {
    const maxRecords = p.maxRecords === undefined || p.maxRecords === '' ? undefined : toInt(p.maxRecords, 100);
    const d = await airtable(io, p, '', 'Failed to list Airtable records', { query: { maxRecords, filterByFormula: text(p.filterFormula) } });
    const records = list(d.records);
    return { records, metadata: { offset: d.offset, totalRecords: records.length } };
  }),
  serviceTool('airtable_get_record', async (p, io) => {
    const record = await airtable(io, p, `/${seg(text(p.recordId))}`, 'Failed to get Airtable record');
    return { record, metadata: { recordCount: 1 } };
  }),
  serviceTool('airtable_create_records', async (p, io) => {
    const d = await airtable(io, p, '', 'Failed to create Airtable records', { method: 'POST', json: { records: jsonParam(p.records, 'create') } });
    const records = list(d.records);
    return { records, metadata: { recordCount: records.length } };
  }),
  serviceTool('airtable_update_record', async (p, io) => {
    const fields = obj(jsonParam(p.fields, 'update'));
    const record = await airtable(io, p, `/${seg(text(p.recordId))}`, 'Failed to update Airtable record', { method: 'PATCH', json: { fields } });
    return { record, metadata: { recordCount: 1, updatedFields: Object.keys(fields) } };
  }),
  serviceTool('airtable_update_multiple_records', async (p, io) => {
    const d = await airtable(io, p, '', 'Failed to update Airtable records', { method: 'PATCH', json: { records: jsonParam(p.records, 'updateMultiple') } });
    const records = list(d.records);
    return { records, metadata: { recordCount: records.length, updatedRecordIds: records.map((r) => obj(r).id) } };
  }),
];
