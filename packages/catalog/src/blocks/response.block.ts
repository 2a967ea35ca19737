import type { BlockConfig } from '../types.js';
import { MAX_RESPONSE_STATUS, MIN_RESPONSE_STATUS } from '../validation/responseStatus.validate.js';
import { dropdown, when } from './fields.js';

/** Response: the final block that answers an API call; it has no outgoing connections. */
export const responseBlock: BlockConfig = {
  type: 'response',
  name: 'Response',
  description: 'Send structured API response',
  longDescription:
    'Transform your workflow output into a properly formatted HTTP response. Set the data, the status code and the headers. This is a final block with no outgoing connections.',
  docsLink: 'https://docs.weft.dev/blocks/response',
  category: 'blocks',
  bgColor: '#2F55FF',
  icon: 'ResponseIcon',
  subBlocks: [
    dropdown('dataMode', 'Response Data Mode', [['structured', 'Builder'], ['json', 'Editor']]),
    // Each row is a field of the answer: its name, its type and its value (the runner's structureToObject reads all three).
    { id: 'builderData', title: 'Response Structure', type: 'input-format', layout: 'full', columns: ['name', 'type', 'value'], condition: when('dataMode', 'structured') },
    { id: 'data', title: 'Response Data', type: 'code', layout: 'full', placeholder: '{\n  "message": "Hello world"\n}', condition: when('dataMode', 'json') },
    { id: 'status', title: 'Status Code', type: 'number', layout: 'half', placeholder: '200', min: MIN_RESPONSE_STATUS, max: MAX_RESPONSE_STATUS, step: 1, defaultValue: 200 },
    { id: 'headers', title: 'Response Headers', type: 'table', layout: 'full', columns: ['Key', 'Value'] },
  ],
  tools: { access: [] },
  inputs: {
    dataMode: { type: 'string', required: false },
    builderData: { type: 'json', required: false },
    data: { type: 'json', required: false },
    status: { type: 'number', required: false },
    headers: { type: 'json', required: false },
  },
  outputs: { data: 'json', status: 'number', headers: 'json' },
};
