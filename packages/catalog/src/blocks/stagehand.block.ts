import type { BlockConfig } from '../types.js';
import { longInput, secretField, shortInput } from './fields.js';

/** Stagehand extract: pulls structured data from a web page with a browser. */
export const stagehandBlock: BlockConfig = {
  type: 'stagehand',
  name: 'Stagehand Extract',
  description: 'Extract data from websites',
  longDescription:
    'Use Stagehand to extract structured data from web pages with a real browser. Give a URL, an instruction and a JSON schema for the data.',
  docsLink: 'https://docs.weft.dev/tools/stagehand',
  category: 'tools',
  bgColor: '#FFC83C',
  icon: 'StagehandIcon',
  subBlocks: [
    shortInput('url', 'URL', 'Enter the URL of the website to extract data from'),
    longInput('instruction', 'Instruction', 'Enter detailed instructions for what data to extract from the page...'),
    { id: 'schema', title: 'Schema', type: 'code', layout: 'full', placeholder: 'Enter JSON Schema...' },
    secretField('apiKey', 'OpenAI API Key', 'Enter your OpenAI API key'),
  ],
  tools: { access: ['stagehand_extract'] },
  inputs: {
    url: { type: 'string', required: true },
    instruction: { type: 'string', required: true },
    schema: { type: 'json', required: true },
    apiKey: { type: 'string', required: true },
  },
  outputs: { data: 'json' },
};
