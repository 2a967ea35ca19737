import { parseJson, text } from '@weft/catalog';
import { ToolError, type ServiceTool } from '../../serviceTool.js';
import { apiMessage, bearer, call, serviceTool } from '../http.js';

/**
 * A Clay table webhook: POST {data} with the table's auth token (§7). The URL is the user's webhook,
 * so the operator's host overrides (WEFT_TOOL_BASE_URLS) apply to it rather than a service base URL.
 */
export const clayTools: ServiceTool[] = [
  serviceTool('clay_populate', async (p, io) => {
    const url = text(p.webhookURL);
    if (url === '') throw new ToolError('Webhook URL is required');
    const data = parseJson(p.data);
    if (!data.ok) throw new ToolError(`Invalid JSON for data: ${data.error}`);
    const res = await call(io, { method: 'POST', url, headers: bearer(p.authToken), json: { data: data.value } });
    if (!res.ok) throw new ToolError(`Clay webhook error: ${res.status} ${apiMessage(res)}`, res.status);
    return { data: res.json ? (res.data ?? null) : res.text };
  }),
];
