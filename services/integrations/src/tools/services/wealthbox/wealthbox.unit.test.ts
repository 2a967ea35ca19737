import { CRM_FIXTURES, createFakeCrm } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { blockPayload, blockRun, useFamily } from '../testSupport.js';
import { wealthboxTools } from './wealthbox.tools.js';

const wb = useFamily(createFakeCrm, { wealthbox: '/wealthbox' }, wealthboxTools);
const tok = { accessToken: 'wb-tok' };
const f = CRM_FIXTURES;

describe('wealthbox reads', () => {
  it('wealthbox_read_contact reads one contact with the token', async () => {
    const r = await wb.run('wealthbox_read_contact', { ...tok, contactId: '101' });
    wb.expectRequest('wealthbox_read_contact', 'GET', '/wealthbox/contacts/101', { headers: { authorization: 'Bearer wb-tok' } });
    expect(r).toEqual({ success: true, output: { success: true, contact: f.contact, metadata: { operation: 'read_contact', itemId: '101', itemType: 'contact' } } });
  });

  it('wealthbox_read_contact lists contacts without an id; no token is refused', async () => {
    expect(await wb.run('wealthbox_read_contact', tok)).toEqual({
      success: true,
      output: { success: true, contacts: f.contacts.contacts, metadata: { operation: 'read_contact', itemType: 'contact', totalCount: 1 } },
    });
    await wb.expectError('wealthbox_read_contact', { contactId: '1' }, 'Access token is required');
  });

  it('wealthbox_read_note reads one or all notes; 404 names the note', async () => {
    expect(await wb.run('wealthbox_read_note', { ...tok, noteId: '201' })).toMatchObject({ success: true, output: { note: f.note } });
    wb.expectRequest('wealthbox_read_note', 'GET', '/wealthbox/notes/201', { headers: { authorization: 'Bearer wb-tok' } });
    expect(await wb.run('wealthbox_read_note', { ...tok, noteId: '' })).toMatchObject({ success: true, output: { notes: f.notes.notes, metadata: { totalCount: 2 } } });
    wb.expectRequest('wealthbox_read_note', 'GET', '/wealthbox/notes', { headers: { authorization: 'Bearer wb-tok' } });
    wb.fake.once('GET', '/wealthbox/notes/:id', { status: 404, json: { error: 'Record not found' } });
    await wb.expectError('wealthbox_read_note', { ...tok, noteId: '999' }, 'Note with ID 999 not found. Please check the note ID and try again.');
  });

  it('wealthbox_read_task reads a task; 404 and 403 give the §8 messages', async () => {
    expect(await wb.run('wealthbox_read_task', { ...tok, taskId: '301' })).toMatchObject({ success: true, output: { task: { ...f.task, complete: 'Incomplete' }, metadata: { itemId: '301', itemType: 'task' } } });
    wb.expectRequest('wealthbox_read_task', 'GET', '/wealthbox/tasks/301', { headers: { authorization: 'Bearer wb-tok' } });
    wb.fake.once('GET', '/wealthbox/tasks/:id', { status: 404, json: {} });
    await wb.expectError('wealthbox_read_task', { ...tok, taskId: '7' }, 'Task with ID 7 not found. Please check the task ID and try again.');
    wb.fake.once('GET', '/wealthbox/tasks/:id', { status: 403, json: {} });
    await wb.expectError('wealthbox_read_task', { ...tok, taskId: '7' }, 'Access denied to this task. Please check your permissions.');
  });
});

describe('wealthbox writes', () => {
  it('wealthbox_write_contact posts names, email and background', async () => {
    const r = await wb.run('wealthbox_write_contact', { ...tok, firstName: 'Grace', lastName: 'Hopper', emailAddress: 'grace@weft.example', backgroundInformation: 'Admiral' });
    const body = { first_name: 'Grace', last_name: 'Hopper', email_addresses: [{ address: 'grace@weft.example', kind: 'Work', principal: true }], background_information: 'Admiral' };
    wb.expectRequest('wealthbox_write_contact', 'POST', '/wealthbox/contacts', { headers: { authorization: 'Bearer wb-tok', 'content-type': 'application/json' }, body });
    expect(r).toEqual({ success: true, output: { success: true, contact: { id: 102, ...body }, metadata: { operation: 'write_contact', itemId: 102, itemType: 'contact' } } });
    await wb.expectError('wealthbox_write_contact', { ...tok, firstName: 'G', lastName: ' ' }, 'Last name is required');
  });

  it('wealthbox_write_note links the note to the contact', async () => {
    const r = await wb.run('wealthbox_write_note', { ...tok, content: 'Met at conference', contactId: '101' });
    wb.expectRequest('wealthbox_write_note', 'POST', '/wealthbox/notes', {
      headers: { authorization: 'Bearer wb-tok', 'content-type': 'application/json' },
      body: { content: 'Met at conference', linked_to: [{ id: 101, type: 'Contact' }] },
    });
    expect(r).toMatchObject({ success: true, output: { note: { id: 203, content: 'Met at conference' }, metadata: { operation: 'write_note', itemId: 203 } } });
    await wb.expectError('wealthbox_write_note', { ...tok, content: ' ' }, 'Note content is required');
  });

  it('wealthbox_write_task posts name, due date, description and link', async () => {
    const r = await wb.run('wealthbox_write_task', { ...tok, title: 'Call back', dueDate: '2025-05-24 11:00 AM -0400', description: 'About the offer', contactId: '101' });
    wb.expectRequest('wealthbox_write_task', 'POST', '/wealthbox/tasks', {
      headers: { authorization: 'Bearer wb-tok', 'content-type': 'application/json' },
      body: { name: 'Call back', due_date: '2025-05-24 11:00 AM -0400', description: 'About the offer', linked_to: [{ id: 101, type: 'Contact' }] },
    });
    expect(r).toMatchObject({ success: true, output: { task: { id: 302, name: 'Call back' }, metadata: { operation: 'write_task', itemId: 302, itemType: 'task' } } });
  });

  it('a task\'s complete flag shows as Complete or Incomplete (§4), read one, listed or written', async () => {
    wb.fake.once('GET', '/wealthbox/tasks/:id', { json: { ...f.task, complete: true } });
    expect(await wb.run('wealthbox_read_task', { ...tok, taskId: '301' })).toMatchObject({ output: { task: { id: 301, complete: 'Complete' } } });
    wb.fake.once('GET', '/wealthbox/tasks', { json: { tasks: [{ id: 1, complete: true }, { id: 2, complete: false }], meta: { total_count: 2 } } });
    expect(await wb.run('wealthbox_read_task', tok)).toMatchObject({ output: { tasks: [{ id: 1, complete: 'Complete' }, { id: 2, complete: 'Incomplete' }] } });
    wb.fake.once('POST', '/wealthbox/tasks', { json: { id: 303, name: 'x', complete: false } });
    expect(await wb.run('wealthbox_write_task', { ...tok, title: 'x', dueDate: '2025-05-24 11:00 AM -0400' })).toMatchObject({ output: { task: { id: 303, complete: 'Incomplete' } } });
  });

  it('wealthbox_write_task checks title and the due date format, and passes API errors', async () => {
    await wb.expectError('wealthbox_write_task', { ...tok, title: 'x', dueDate: ' ' }, 'Due date is required');
    await wb.expectError('wealthbox_write_task', { ...tok, title: 'x', dueDate: '2025-05-24' }, 'Invalid due date format. Expected format: YYYY-MM-DD HH:MM AM/PM -HHMM (e.g. 2015-05-24 11:00 AM -0400)');
    expect(wb.fake.requests).toHaveLength(0);
    wb.fake.once('POST', '/wealthbox/tasks', { status: 422, json: { errors: [{ message: 'Due date is invalid' }] } });
    await wb.expectError('wealthbox_write_task', { ...tok, title: 'x', dueDate: '2025-05-24 11:00 AM -0400' }, 'Wealthbox API error: Due date is invalid');
  });
});

describe('§7 Wealthbox block payload keys: credential plus noteId, contactId, taskId', () => {
  it.each([
    ['read_note', { noteId: '201' }, { noteId: '201' }, '/wealthbox/notes/201'],
    ['read_contact', { manualContactId: '101' }, { contactId: '101' }, '/wealthbox/contacts/101'],
    ['read_task', { taskId: '301' }, { taskId: '301' }, '/wealthbox/tasks/301'],
  ] as const)('%s sends the credential and its id, and reads with the credential\'s token', async (operation, values, ids, path) => {
    const { toolId, params } = blockPayload('wealthbox', { operation, credential: 'cred-wb', ...values });
    expect(toolId).toBe(`wealthbox_${operation}`);
    expect(params).toMatchObject({ credential: 'cred-wb', ...ids });
    expect(await wb.run(toolId, params)).toMatchObject({ success: true });
    wb.expectRequest(toolId, 'GET', path, { headers: { authorization: 'Bearer oauth-cred-wb' } });
  });
});

describe('the Wealthbox block reaches its tools', () => {
  it('write_task: the form\'s Content is the task\'s description', async () => {
    const { toolId, params } = blockRun('wealthbox', { operation: 'write_task', credential: 'cred-wb', title: 'Call back', dueDate: '2025-05-24 11:00 AM -0400', content: 'About the offer', manualContactId: '101' });
    expect(await wb.run(toolId, params)).toMatchObject({ success: true });
    wb.expectRequest('wealthbox_write_task', 'POST', '/wealthbox/tasks', {
      body: { name: 'Call back', due_date: '2025-05-24 11:00 AM -0400', description: 'About the offer', linked_to: [{ id: 101, type: 'Contact' }] },
    });
  });

  it('write_note: the form\'s Content stays the note\'s content', async () => {
    const { toolId, params } = blockRun('wealthbox', { operation: 'write_note', credential: 'cred-wb', content: 'Met at conference', contactId: '101' });
    await wb.run(toolId, params);
    wb.expectRequest('wealthbox_write_note', 'POST', '/wealthbox/notes', { body: { content: 'Met at conference', linked_to: [{ id: 101, type: 'Contact' }] } });
  });
});
