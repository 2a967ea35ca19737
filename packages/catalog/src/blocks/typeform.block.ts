import { operationTool, text } from '../paramValues.js';
import type { BlockConfig } from '../types.js';
import { dropdown, operationField, secretField, shortInput, when } from './fields.js';

const TOOL_BY_OPERATION = { responses: 'typeform_responses', files: 'typeform_files', insights: 'typeform_insights' } as const;
const RESPONSES = when('operation', 'responses');
const FILES = when('operation', 'files');

/** Drops the completed filter when it is 'all'. */
function typeformParams(p: Record<string, unknown>): Record<string, unknown> {
  const { completed, ...rest } = p;
  return text(completed) === 'all' || text(completed) === '' ? rest : { ...rest, completed };
}

/** Typeform: responses, uploaded files and form insights. */
export const typeformBlock: BlockConfig = {
  type: 'typeform',
  name: 'Typeform',
  description: 'Interact with Typeform',
  longDescription:
    'Access and retrieve responses from your Typeform forms. Download files uploaded in responses and read form insights.',
  docsLink: 'https://docs.weft.dev/tools/typeform',
  category: 'tools',
  bgColor: '#262627',
  icon: 'TypeformIcon',
  subBlocks: [
    operationField([['responses', 'Retrieve Responses'], ['files', 'Download Files'], ['insights', 'Form Insights']]),
    shortInput('formId', 'Form ID', 'Enter your Typeform form ID'),
    secretField('apiKey', 'Personal Access Token', 'Enter your Typeform personal access token'),
    shortInput('pageSize', 'Page Size', 'Number of responses per page (default: 25)', { layout: 'half', defaultValue: '25', condition: RESPONSES }),
    shortInput('since', 'Since', 'Retrieve responses after this date (ISO format)', { layout: 'half', condition: RESPONSES }),
    shortInput('until', 'Until', 'Retrieve responses before this date (ISO format)', { layout: 'half', condition: RESPONSES }),
    dropdown('completed', 'Completed', [['all', 'All Responses'], ['true', 'Only Completed'], ['false', 'Only Incomplete']], { layout: 'half', condition: RESPONSES }),
    shortInput('responseId', 'Response ID', 'Enter response ID (token)', { layout: 'half', condition: FILES }),
    shortInput('fieldId', 'Field ID', 'Enter file upload field ID', { layout: 'half', condition: FILES }),
    shortInput('filename', 'Filename', 'Enter exact filename of the file', { layout: 'half', condition: FILES }),
    { id: 'inline', title: 'Inline Display', type: 'switch', layout: 'half', defaultValue: false, condition: FILES },
  ],
  tools: {
    access: Object.values(TOOL_BY_OPERATION),
    config: { tool: operationTool(TOOL_BY_OPERATION, (op) => `Invalid Typeform operation: ${op}`), params: typeformParams },
  },
  inputs: {
    operation: { type: 'string', required: true },
    formId: { type: 'string', required: true },
    apiKey: { type: 'string', required: true },
    pageSize: { type: 'number', required: false },
    since: { type: 'string', required: false },
    until: { type: 'string', required: false },
    completed: { type: 'string', required: false },
    responseId: { type: 'string', required: false },
    fieldId: { type: 'string', required: false },
    filename: { type: 'string', required: false },
    inline: { type: 'boolean', required: false },
  },
  outputs: { total_items: 'number', page_count: 'number', items: 'json' },
};
