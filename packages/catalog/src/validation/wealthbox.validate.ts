import { firstText, isBlank, text } from '../paramValues.js';

/** Wealthbox due dates: 'YYYY-MM-DD HH:MM AM/PM -HHMM', e.g. '2015-05-24 11:00 AM -0400'. */
export const WEALTHBOX_DUE_DATE = /^\d{4}-\d{2}-\d{2} \d{1,2}:\d{2} (AM|PM) [+-]\d{4}$/;

/** Wealthbox: ids per operation, names for contacts, content for notes, title and due date for tasks. */
export function validateWealthbox(params: Record<string, unknown>): string | undefined {
  const op = params.operation;
  const contactId = firstText(params.contactId, params.manualContactId);
  const taskId = firstText(params.taskId, params.manualTaskId);
  if (op === 'read_contact' && contactId === '') return 'Contact ID is required for contact operations';
  if (op === 'read_task' && taskId === '') return 'Task ID is required for task operations';
  if ((op === 'write_note' || op === 'write_task') && contactId === '') return 'Contact ID is required for this operation';
  if (op === 'write_contact') {
    if (isBlank(params.firstName)) return 'First name is required';
    if (isBlank(params.lastName)) return 'Last name is required';
  }
  if (op === 'write_note' && isBlank(params.content)) return 'Note content is required';
  if (op === 'write_task') {
    if (isBlank(params.title)) return 'Task title is required';
    if (isBlank(params.dueDate)) return 'Due date is required';
    if (!WEALTHBOX_DUE_DATE.test(text(params.dueDate))) {
      return 'Invalid due date format. Expected format: YYYY-MM-DD HH:MM AM/PM -HHMM (e.g. 2015-05-24 11:00 AM -0400)';
    }
  }
  return undefined;
}
