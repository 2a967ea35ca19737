import type { BlockConfig } from '../types.js';
import { dropdown } from './fields.js';

/** API: an HTTP request to any endpoint. */
export const apiBlock: BlockConfig = {
  type: 'api',
  name: 'API',
  description: 'Use any API',
  longDescription:
    'Connect to any external API with support for all standard HTTP methods and customizable request parameters. Configure headers, query parameters and request bodies.',
  docsLink: 'https://docs.weft.dev/blocks/api',
  category: 'blocks',
  bgColor: '#2F55FF',
  icon: 'ApiIcon',
  subBlocks: [
    { id: 'url', title: 'URL', type: 'short-input', layout: 'full', placeholder: 'Enter URL' },
    dropdown('method', 'Method', ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']),
    { id: 'params', title: 'Query Params', type: 'table', layout: 'full', columns: ['Key', 'Value'] },
    { id: 'headers', title: 'Headers', type: 'table', layout: 'full', columns: ['Key', 'Value'] },
    { id: 'body', title: 'Body', type: 'code', layout: 'full', placeholder: 'Enter JSON...' },
  ],
  tools: { access: ['http_request'] },
  inputs: {
    url: { type: 'string', required: true },
    method: { type: 'string', required: true },
    headers: { type: 'json', required: false },
    body: { type: 'json', required: false },
    params: { type: 'json', required: false },
  },
  outputs: { data: 'any', status: 'number', headers: 'json' },
};
