import { ToolError } from '../tools/serviceTool.js';
import { guardedFetch, NetworkError, OutboundRefusedError, RequestTimeoutError, ResponseTooLargeError } from '../net/guardedFetch.js';
import type { AddressPolicy } from '../net/addressPolicy.js';
import type { BaseUrls } from '../tools/runtime/baseUrls.js';
import { readBody } from '../tools/runtime/httpRequest.js';
import { json, type Route } from './router.js';

/** The variable of the caller's environment that holds the Firecrawl key when the query gives none. */
export const FIRECRAWL_KEY_VARIABLE = 'FIRECRAWL_API_KEY';

/** The §8 message of a refused Firecrawl call by status. */
const REFUSALS: Record<number, string> = {
  401: 'Invalid API key. Please check your Firecrawl API key.',
  429: 'Rate limit exceeded. Please try again later.',
  402: 'Insufficient credits. Please check your Firecrawl plan and usage.',
};

/**
 * `GET /api/tools/firecrawl/crawl/{jobId}` (spec 000 §7): a crawl's status as Firecrawl answers it,
 * `{success, output {status, total, completed, creditsUsed, expiresAt, data}}`; a failed crawl is
 * `Crawl job failed`. The key comes from `?apiKey=` or the caller's FIRECRAWL_API_KEY.
 */
export function firecrawlRoutes(policy: AddressPolicy, baseUrls: BaseUrls): Route[] {
  return [
    {
      method: 'GET',
      path: '/tools/firecrawl/crawl/:jobId',
      async handle(req, params) {
        const apiKey = req.query.apiKey || req.envVars[FIRECRAWL_KEY_VARIABLE] || '';
        if (!apiKey) throw new ToolError(`apiKey is required (the apiKey query parameter or the ${FIRECRAWL_KEY_VARIABLE} environment variable)`, 400);
        const base = baseUrls.get('firecrawl') ?? 'https://api.firecrawl.dev/v1';
        let res: Response;
        try {
          res = await guardedFetch(`${base}/crawl/${encodeURIComponent(params.jobId ?? '')}`, { headers: { Authorization: `Bearer ${apiKey}` }, timeoutMs: 30_000, signal: req.signal }, policy);
        } catch (err) {
          if (err instanceof OutboundRefusedError) throw new ToolError(err.message, 400);
          if (err instanceof RequestTimeoutError || err instanceof NetworkError) throw new ToolError(`Firecrawl API error: ${err.message}`, 502);
          if (err instanceof ResponseTooLargeError) throw new ToolError(`Firecrawl API error: the answer is larger than ${err.maxBytes / 1024 / 1024} MB`, 502);
          throw err;
        }
        const body = (await readBody(res)) as Record<string, unknown> | string;
        const refusal = REFUSALS[res.status];
        if (refusal) throw new ToolError(refusal, res.status);
        const b = typeof body === 'object' && body !== null ? body : {};
        if (!res.ok) throw new ToolError(`Firecrawl API error: ${typeof b.error === 'string' ? b.error : `Request failed with status ${res.status}`}`, res.status === 404 ? 404 : 502);
        const output = { status: b.status ?? null, total: b.total ?? 0, completed: b.completed ?? 0, creditsUsed: b.creditsUsed ?? 0, expiresAt: b.expiresAt ?? null, data: Array.isArray(b.data) ? b.data : [] };
        if (b.status === 'failed') return json({ success: false, error: 'Crawl job failed', output });
        return json({ success: true, output });
      },
    },
  ];
}
