import { firstText, operationTool } from '../paramValues.js';
import { SCOPES } from '../tools/scopes.js';
import type { BlockConfig } from '../types.js';
import { credentialField, longInput, operationField, selectorPair, shortInput, when } from './fields.js';

/** Wealthbox operation → tool id. */
export const WEALTHBOX_TOOLS = {
  read_note: 'wealthbox_read_note',
  write_note: 'wealthbox_write_note',
  read_contact: 'wealthbox_read_contact',
  write_contact: 'wealthbox_write_contact',
  read_task: 'wealthbox_read_task',
  write_task: 'wealthbox_write_task',
} as const;

const CONTACT_OPS = ['read_contact', 'write_task', 'write_note'];

/** Wealthbox CRM: notes, contacts and tasks. */
export const wealthboxBlock: BlockConfig = {
  type: 'wealthbox',
  name: 'Wealthbox',
  description: 'Interact with Wealthbox',
  longDescription:
    'Integrate Wealthbox CRM to read and write notes, contacts and tasks. Pick contacts and tasks from a list or enter their ids.',
  docsLink: 'https://docs.weft.dev/tools/wealthbox',
  category: 'tools',
  bgColor: '#E0E0E0',
  icon: 'WealthboxIcon',
  subBlocks: [
    operationField([
      ['read_note', 'Read Note'], ['write_note', 'Write Note'], ['read_contact', 'Read Contact'],
      ['write_contact', 'Write Contact'], ['read_task', 'Read Task'], ['write_task', 'Write Task'],
    ]),
    credentialField('wealthbox', 'wealthbox', 'Wealthbox Account', SCOPES.wealthbox),
    shortInput('noteId', 'Note ID', 'Enter Note ID (optional)', { condition: when('operation', 'read_note') }),
    ...selectorPair(
      { id: 'contactId', title: 'Select Contact', type: 'file-selector', layout: 'full', provider: 'wealthbox', serviceId: 'wealthbox-contacts', placeholder: 'Enter Contact ID', condition: when('operation', CONTACT_OPS) },
      { id: 'manualContactId', title: 'Contact ID', placeholder: 'Enter Contact ID' },
    ),
    ...selectorPair(
      { id: 'taskId', title: 'Select Task', type: 'file-selector', layout: 'full', provider: 'wealthbox', serviceId: 'wealthbox-tasks', placeholder: 'Enter Task ID', condition: when('operation', 'read_task') },
      { id: 'manualTaskId', title: 'Task ID', placeholder: 'Enter Task ID' },
    ),
    shortInput('title', 'Title', 'Enter Title', { condition: when('operation', 'write_task') }),
    shortInput('dueDate', 'Due Date', 'Enter due date (e.g., 2015-05-24 11:00 AM -0400)', { condition: when('operation', 'write_task') }),
    shortInput('firstName', 'First Name', 'Enter First Name', { layout: 'half', condition: when('operation', 'write_contact') }),
    shortInput('lastName', 'Last Name', 'Enter Last Name', { layout: 'half', condition: when('operation', 'write_contact') }),
    shortInput('emailAddress', 'Email Address', 'Enter Email Address', { condition: when('operation', 'write_contact') }),
    longInput('content', 'Content', 'Enter Content', { condition: when('operation', ['write_note', 'write_task']) }),
    longInput('backgroundInformation', 'Background Information', 'Enter Background Information', { condition: when('operation', 'write_contact') }),
  ],
  tools: {
    access: Object.values(WEALTHBOX_TOOLS),
    config: {
      tool: operationTool(WEALTHBOX_TOOLS, (op) => `Unknown operation: ${op}`),
      params: (p) => {
        const { manualContactId, manualTaskId, ...rest } = p;
        const contactId = firstText(p.contactId, manualContactId);
        const taskId = firstText(p.taskId, manualTaskId);
        // A task's Content field is the task tool's description (a note's content stays its content).
        const description = p.operation === 'write_task' ? firstText(p.description, p.content) : '';
        return { ...rest, ...(contactId ? { contactId } : {}), ...(taskId ? { taskId } : {}), ...(description ? { description } : {}) };
      },
    },
  },
  inputs: {
    operation: { type: 'string', required: true },
    credential: { type: 'string', required: true },
    noteId: { type: 'string', required: false },
    contactId: { type: 'string', required: false },
    taskId: { type: 'string', required: false },
    title: { type: 'string', required: false },
    dueDate: { type: 'string', required: false },
    firstName: { type: 'string', required: false },
    lastName: { type: 'string', required: false },
    emailAddress: { type: 'string', required: false },
    content: { type: 'string', required: false },
    backgroundInformation: { type: 'string', required: false },
  },
  outputs: {
    note: 'any', notes: 'any', contact: 'any', contacts: 'any', task: 'any', tasks: 'any', metadata: 'json', success: 'any',
  },
};
