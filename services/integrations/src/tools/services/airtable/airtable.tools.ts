import { parseJson, text, toInt } from '@weft/catalog';
import { errorMessage, TransientToolError } from '../../runtime/errors.js';
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

/** Airtable takes at most 10 records a create or update request. */
const AIRTABLE_BATCH = 10;

/**
 * Writes records in requests of at most 10, in order, and answers every written record. A batch
 * that fails after others were written fails the tool, not retried (a retry would write them again),
 * saying how many were written before it.
 */
async function writeInBatches(io: ToolIO, p: Obj, method: 'POST' | 'PATCH', records: unknown, failure: string, done: string): Promise<unknown[]> {
  if (!Array.isArray(records)) return list((await airtable(io, p, '', failure, { method, json: { records } })).records);
  const written: unknown[] = [];
  for (let i = 0; i < records.length || i === 0; i += AIRTABLE_BATCH) {
    try {
      written.push(...list((await airtable(io, p, '', failure, { method, json: { records: records.slice(i, i + AIRTABLE_BATCH) } })).records));
    } catch (err) {
      if (i === 0) throw err;
      const status = err instanceof ToolError || err instanceof TransientToolError ? err.status : undefined;
      const message = err instanceof ToolError ? err.message : `${failure}: ${errorMessage(err)}`;
      throw new ToolError(`${message} (${i} of ${records.length} records were ${done} before it, in batches of ${AIRTABLE_BATCH})`, status);
    }
  }
  return written;
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
    const records = await writeInBatches(io, p, 'POST', jsonParam(p.records, 'create'), 'Failed to create Airtable records', 'created');
    return { records, metadata: { recordCount: records.length } };
  }),
  serviceTool('airtable_update_record', async (p, io) => {
    const fields = obj(jsonParam(p.fields, 'update'));
    const record = await airtable(io, p, `/${seg(text(p.recordId))}`, 'Failed to update Airtable record', { method: 'PATCH', json: { fields } });
    return { record, metadata: { recordCount: 1, updatedFields: Object.keys(fields) } };
  }),
  serviceTool('airtable_update_multiple_records', async (p, io) => {
    const records = await writeInBatches(io, p, 'PATCH', jsonParam(p.records, 'updateMultiple'), 'Failed to update Airtable records', 'updated');
    return { records, metadata: { recordCount: records.length, updatedRecordIds: records.map((r) => obj(r).id) } };
  }),
];
