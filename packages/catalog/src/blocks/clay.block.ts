import type { BlockConfig } from '../types.js';
import { longInput, secretField, shortInput } from './fields.js';

/** Clay: pushes data into a Clay table through its webhook. */
export const clayBlock: BlockConfig = {
  type: 'clay',
  name: 'Clay',
  description: 'Populate Clay workbook',
  longDescription: 'Populate a Clay workbook with data by posting it to the table webhook URL.',
  docsLink: 'https://docs.weft.dev/tools/clay',
  category: 'tools',
  bgColor: '#E0E0E0',
  icon: 'ClayIcon',
  subBlocks: [
    shortInput('webhookURL', 'Webhook URL', 'Enter Clay webhook URL'),
    longInput('data', 'Data (JSON or Plain Text)', 'Enter your JSON data to populate your Clay table'),
    secretField('authToken', 'Auth Token', 'Enter your Clay Auth token', { connectionDroppable: false }),
  ],
  tools: { access: ['clay_populate'] },
  inputs: {
    authToken: { type: 'string', required: true },
    webhookURL: { type: 'string', required: true },
    data: { type: 'json', required: true },
  },
  outputs: { data: 'any' },
};
