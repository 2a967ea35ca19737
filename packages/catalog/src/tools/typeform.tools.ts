import type { ToolConfig } from '../types.js';
import { defineTool, may, need } from './define.js';

const API = 'https://api.typeform.com';
const headers = { Authorization: 'Bearer {apiKey}', 'Content-Type': 'application/json' };
const formId = need('string', 'user', 'Typeform form ID');
const apiKey = need('string', 'user', 'Typeform Personal Access Token');

/** Typeform responses, response files and insights. */
export const typeformTools: ToolConfig[] = [
  defineTool({
    id: 'typeform_responses',
    name: 'Typeform Responses',
    description: 'Retrieve form responses from Typeform',
    params: {
      formId,
      apiKey,
      pageSize: may('number', 'user', 'Number of responses to retrieve', 25),
      since: may('string', 'user', 'Retrieve responses submitted after this date (ISO 8601)'),
      until: may('string', 'user', 'Retrieve responses submitted before this date (ISO 8601)'),
      completed: may('string', 'user', 'Filter by completion status (true, false, all)'),
    },
    request: { method: 'GET', url: `${API}/forms/{formId}/responses?page_size={pageSize}`, headers },
  }),
  defineTool({
    id: 'typeform_files',
    name: 'Typeform Files',
    description: 'Download files uploaded in Typeform responses',
    params: {
      formId,
      apiKey,
      responseId: need('string', 'user', 'Response ID containing the files'),
      fieldId: need('string', 'user', 'Unique ID of the file upload field'),
      filename: need('string', 'user', 'Filename of the uploaded file'),
      inline: may('boolean', 'user', 'Whether to request the file with inline Content-Disposition', false),
    },
    request: { method: 'GET', url: `${API}/forms/{formId}/responses/{responseId}/fields/{fieldId}/files/{filename}`, headers },
  }),
  defineTool({
    id: 'typeform_insights',
    name: 'Typeform Insights',
    description: 'Retrieve insights and analytics for Typeform forms',
    params: { formId, apiKey },
    request: { method: 'GET', url: `${API}/insights/{formId}/summary`, headers },
  }),
];
