import type { ToolConfig } from '../types.js';
import { defineTool, may, need } from './define.js';

/** Default and fallback timeouts of the HTTP request tool, in milliseconds (§9). */
export const HTTP_TIMEOUT_MS = { default: 10_000, fallback: 120_000 } as const;

/** Default timeout of function execution, in milliseconds. */
export const FUNCTION_TIMEOUT_MS = 10_000;

/** The HTTP request tool and the code execution tool. */
export const httpTools: ToolConfig[] = [
  defineTool({
    id: 'http_request',
    name: 'HTTP Request',
    description: 'Make HTTP requests with full support for methods, headers, query parameters and body. The method parameter overrides the request method.',
    params: {
      url: need('string', 'llm', 'The URL to send the request to'),
      method: may('string', 'llm', 'HTTP method (GET, POST, PUT, PATCH, DELETE)', 'GET'),
      headers: may('object', 'llm', 'HTTP headers to include'),
      body: may('object', 'llm', 'Request body (for POST, PUT, PATCH)'),
      params: may('object', 'llm', 'URL query parameters to append'),
      pathParams: may('object', 'llm', 'Path parameters to replace in the URL (e.g. :id)'),
      formData: may('object', 'llm', 'Form data to send'),
      timeout: may('number', 'hidden', 'Request timeout in milliseconds', HTTP_TIMEOUT_MS.default),
    },
    request: { method: 'GET', url: '{url}', headers: {} },
  }),
  defineTool({
    id: 'function_execute',
    name: 'Function Execute',
    description: 'Execute JavaScript code in a secure, sandboxed environment',
    params: {
      code: need('string', 'llm', 'The code to execute'),
      timeout: may('number', 'hidden', 'Execution timeout in milliseconds', FUNCTION_TIMEOUT_MS),
      envVars: may('object', 'hidden', 'Environment variables to make available during execution'),
      blockData: may('object', 'hidden', 'Block output data for variable resolution'),
      blockNameMapping: may('object', 'hidden', 'Mapping of block names to block ids'),
      workflowId: may('string', 'hidden', 'Workflow id for logging'),
      isCustomTool: may('boolean', 'hidden', 'Whether the code is a custom tool', false),
    },
    request: { method: 'POST', url: '/api/function/execute' },
  }),
];
