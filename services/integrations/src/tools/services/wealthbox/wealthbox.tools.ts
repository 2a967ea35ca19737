import { WEALTHBOX_DUE_DATE, text } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { apiMessage, bearer, call, list, obj, requireText, seg, serviceTool, type CallSpec, type Obj } from '../http.js';

type Kind = 'contact' | 'note' | 'task';
const TITLE: Record<Kind, string> = { contact: 'Contact', note: 'Note', task: 'Task' };

/** One Wealthbox request; 404 and 403 give the §8 messages naming the item. */
async function wealthbox(io: ToolIO, p: Obj, kind: Kind, id: string, spec: Omit<CallSpec, 'url'> & { path: string }): Promise<Obj> {
  if (text(p.accessToken) === '') throw new ToolError('Access token is required');
  const { path, ...rest } = spec;
  const res = await call(io, { ...rest, url: `${io.baseUrl('wealthbox')}${path}`, headers: bearer(p.accessToken) });
  if (res.status === 404 && id !== '') throw new ToolError(`${TITLE[kind]} with ID ${id} not found. Please check the ${kind} ID and try again.`, 404);
  if (res.status === 403) throw new ToolError(`Access denied to this ${kind}. Please check your permissions.`, 403);
  if (!res.ok) throw new ToolError(`Wealthbox API error: ${apiMessage(res)}`, res.status);
  return obj(res.data);
}

/** A contact link for notes and tasks. */
function linkedTo(contactId: string): Obj[] | undefined {
  if (contactId === '') return undefined;
  const id = Number(contactId);
  return [{ id: Number.isSafeInteger(id) ? id : contactId, type: 'Contact' }];
}

/** A task as the tools answer it: its complete flag shown as 'Complete' or 'Incomplete' (§4). */
export function shownTask(value: unknown): Obj {
  const task = obj(value);
  return { ...task, complete: task.complete === true ? 'Complete' : 'Incomplete' };
}

/** An item as the tools answer it (tasks shown, others as the API answers them). */
const shown = (kind: Kind, value: unknown): Obj => (kind === 'task' ? shownTask(value) : obj(value));

/** Reads one item by id, or lists them when no id is given. */
function reader(kind: Kind, idParam: string, plural: string) {
  return serviceTool(`wealthbox_read_${kind}`, async (p, io) => {
    const id = text(p[idParam]);
    const data = await wealthbox(io, p, kind, id, { path: id ? `/${plural}/${seg(id)}` : `/${plural}` });
    if (id) return { success: true, [kind]: shown(kind, data), metadata: { operation: `read_${kind}`, itemId: id, itemType: kind } };
    const items = list(data[plural]).map((item) => (kind === 'task' ? shownTask(item) : item));
    return { success: true, [plural]: items, metadata: { operation: `read_${kind}`, itemType: kind, totalCount: obj(data.meta).total_count ?? items.length } };
  });
}

/** Wealthbox CRM: contacts, notes and tasks (§3 shapes as the API answers them). */
export const wealthboxTools: ServiceTool[] = [
  reader('contact', 'contactId', 'contacts'),
  reader('note', 'noteId', 'notes'),
  reader('task', 'taskId', 'tasks'),
  serviceTool('wealthbox_write_contact', async (p, io) => {
    const body: Obj = { first_name: requireText(p, 'firstName', 'First name is required'), last_name: requireText(p, 'lastName', 'Last name is required') };
    const email = text(p.emailAddress);
    if (email) body.email_addresses = [{ address: email, kind: 'Work', principal: true }];
    const background = text(p.backgroundInformation);
    if (background) body.background_information = background;
    const contact = await wealthbox(io, p, 'contact', '', { method: 'POST', path: '/contacts', json: body });
    return { success: true, contact, metadata: { operation: 'write_contact', itemId: contact.id, itemType: 'contact' } };
  }),
  serviceTool('wealthbox_write_note', async (p, io) => {
    const body: Obj = { content: requireText(p, 'content', 'Note content is required') };
    const link = linkedTo(text(p.contactId));
    if (link) body.linked_to = link;
    const note = await wealthbox(io, p, 'note', '', { method: 'POST', path: '/notes', json: body });
    return { success: true, note, metadata: { operation: 'write_note', itemId: note.id, itemType: 'note' } };
  }),
  serviceTool('wealthbox_write_task', async (p, io) => {
    const name = requireText(p, 'title', 'Task title is required');
    const due = requireText(p, 'dueDate', 'Due date is required');
    if (!WEALTHBOX_DUE_DATE.test(due)) throw new ToolError('Invalid due date format. Expected format: YYYY-MM-DD HH:MM AM/PM -HHMM (e.g. 2015-05-24 11:00 AM -0400)');
    const body: Obj = { name, due_date: due };
    const description = text(p.description);
    if (description) body.description = description;
    const link = linkedTo(text(p.contactId));
    if (link) body.linked_to = link;
    const task = shownTask(await wealthbox(io, p, 'task', '', { method: 'POST', path: '/tasks', json: body }));
    return { success: true, task, metadata: { operation: 'write_task', itemId: task.id, itemType: 'task' } };
  }),
];
