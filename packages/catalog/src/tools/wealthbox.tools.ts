import type { ToolConfig } from '../types.js';
import { accessToken, bearer, may, need, oauth, toolFamily } from './define.js';
import { SCOPES } from './scopes.js';

const API = 'https://api.crmworkspace.com/v1';
const wbOAuth = oauth('wealthbox', SCOPES.wealthbox);
const token = accessToken('Wealthbox');

const tool = toolFamily({ baseUrl: `${API}/`, headers: bearer(), common: { accessToken: token }, oauth: wbOAuth });

/** Wealthbox notes, contacts and tasks (GET by optional id, POST to create). */
export const wealthboxTools: ToolConfig[] = [
  tool('wealthbox_read_note', 'Read Wealthbox Note', 'Read content from a Wealthbox note', 'GET', 'notes/{noteId}', {
    noteId: may('string', 'llm', 'The ID of the note to read (all notes when empty)'),
  }),
  tool('wealthbox_write_note', 'Write Wealthbox Note', 'Create a note in Wealthbox linked to a contact', 'POST', 'notes', {
    content: need('string', 'llm', 'The main body of the note'),
    contactId: may('string', 'llm', 'ID of the contact to link to this note'),
  }),
  tool('wealthbox_read_contact', 'Read Wealthbox Contact', 'Read content from a Wealthbox contact', 'GET', 'contacts/{contactId}', {
    contactId: may('string', 'llm', 'The ID of the contact to read'),
  }),
  tool('wealthbox_write_contact', 'Write Wealthbox Contact', 'Create a new Wealthbox contact', 'POST', 'contacts', {
    firstName: need('string', 'llm', 'The first name of the contact'),
    lastName: need('string', 'llm', 'The last name of the contact'),
    emailAddress: may('string', 'llm', 'The email address of the contact'),
    backgroundInformation: may('string', 'llm', 'Background information about the contact'),
  }),
  tool('wealthbox_read_task', 'Read Wealthbox Task', 'Read content from a Wealthbox task', 'GET', 'tasks/{taskId}', {
    taskId: may('string', 'llm', 'The ID of the task to read'),
  }),
  tool('wealthbox_write_task', 'Write Wealthbox Task', 'Create a Wealthbox task', 'POST', 'tasks', {
    title: need('string', 'llm', 'The name of the task'),
    dueDate: need('string', 'llm', 'Due date, format "YYYY-MM-DD HH:MM AM/PM -HHMM" (e.g. "2015-05-24 11:00 AM -0400")'),
    contactId: may('string', 'llm', 'ID of the contact to link to this task'),
    description: may('string', 'llm', 'Description or notes about the task'),
  }),
];
