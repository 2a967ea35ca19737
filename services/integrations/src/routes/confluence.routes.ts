import { ToolError } from '../tools/serviceTool.js';
import { createToolIO } from '../tools/runtime/executeTool.js';
import { bearer, call, list, obj, seg, apiMessage } from '../tools/services/http.js';
import { hostOf, siteOfDomain } from '../tools/services/atlassianSite.js';
import type { AddressPolicy } from '../net/addressPolicy.js';
import type { BaseUrls } from '../tools/runtime/baseUrls.js';
import type { ToolIO } from '../tools/serviceTool.js';
import { json, objectBody, str, type Route } from './router.js';

const PAGE_ID_REQUIRED = 'Page ID is required. Please select a page or enter a page ID manually.';
const INVALID_FORMAT = 'Invalid response format from Confluence API - missing required fields';

/** The site's cloud id: the given one, else the accessible resource whose host is exactly the domain. */
async function siteId(io: ToolIO, b: Record<string, unknown>, token: string): Promise<string> {
  const given = str(b, 'cloudId').trim();
  if (given) return given;
  const domain = hostOf(str(b, 'domain'));
  if (!domain) throw new ToolError('domain is required', 400);
  const res = await call(io, { url: `${io.baseUrl('atlassian')}/oauth/token/accessible-resources`, headers: bearer(token) });
  if (!res.ok) throw new ToolError(`Failed to find the Confluence site: ${apiMessage(res)}`, res.status);
  const site = siteOfDomain(list(res.data).map(obj), domain);
  if (!site || typeof site.id !== 'string') throw new ToolError(`No Confluence site found for ${domain}`, 404);
  return site.id;
}

/** Page text without its storage-format markup. */
function plain(storage: string): string {
  return storage.replace(/<[^>]+>/g, ' ').replace(/&nbsp;/g, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * `POST /api/tools/confluence/page {domain, accessToken, pageId, cloudId?}` reads a page and
 * `PUT` updates it (`title`, `body {value}` or `content`, `version {number, message}`; the version
 * defaults to the page's next one), both through Atlassian's Confluence v2 API.
 */
export function confluenceRoutes(policy: AddressPolicy, baseUrls: BaseUrls): Route[] {
  async function page(io: ToolIO, b: Record<string, unknown>) {
    const token = str(b, 'accessToken');
    if (!token) throw new ToolError('accessToken is required', 400);
    const pageId = str(b, 'pageId').trim();
    if (!pageId) throw new ToolError(PAGE_ID_REQUIRED, 400);
    const base = `${io.baseUrl('atlassian')}/ex/confluence/${seg(await siteId(io, b, token))}/wiki/api/v2/pages/${seg(pageId)}`;
    const res = await call(io, { url: base, query: { 'body-format': 'storage' }, headers: { ...bearer(token), Accept: 'application/json' } });
    if (!res.ok) throw new ToolError(`Failed to retrieve Confluence page: ${apiMessage(res)}`, res.status);
    const d = obj(res.data);
    if (d.id === undefined || typeof d.title !== 'string') throw new ToolError(INVALID_FORMAT, 502);
    return { base, token, pageId, data: d };
  }
  return [
    {
      method: 'POST',
      path: '/tools/confluence/page',
      async handle(req) {
        const io = createToolIO({ policy, baseUrls }, req, 'confluence_retrieve', req.signal);
        const { pageId, data } = await page(io, objectBody(req.body));
        const storage = String(obj(obj(data.body).storage).value ?? '');
        return json({ success: true, output: { ts: new Date().toISOString(), pageId, title: data.title, content: plain(storage) } });
      },
    },
    {
      method: 'PUT',
      path: '/tools/confluence/page',
      async handle(req) {
        const b = objectBody(req.body);
        const io = createToolIO({ policy, baseUrls }, req, 'confluence_update', req.signal);
        const current = await page(io, b);
        const givenBody = obj(b.body);
        const value = typeof givenBody.value === 'string' ? givenBody.value : str(b, 'content');
        const version = obj(b.version);
        const currentNumber = Number(obj(current.data.version).number ?? 0);
        const number = Number(version.number ?? (typeof b.version === 'number' ? b.version : NaN));
        const next = Number.isInteger(number) && number > currentNumber ? number : currentNumber + 1;
        const res = await call(io, {
          method: 'PUT',
          url: current.base,
          headers: { ...bearer(current.token), Accept: 'application/json' },
          json: {
            id: current.pageId,
            status: 'current',
            title: str(b, 'title') || current.data.title,
            body: { representation: 'storage', value: value || String(obj(obj(current.data.body).storage).value ?? '') },
            version: { number: next, message: typeof version.message === 'string' ? version.message : '' },
          },
        });
        if (!res.ok) throw new ToolError(`Failed to update Confluence page: ${apiMessage(res)}`, res.status);
        const d = obj(res.data);
        if (d.id === undefined || typeof d.title !== 'string') throw new ToolError(INVALID_FORMAT, 502);
        return json({ success: true, output: { ts: new Date().toISOString(), pageId: current.pageId, title: d.title, success: true } });
      },
    },
  ];
}
