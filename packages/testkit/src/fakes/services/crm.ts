import type { FakeAnswer, FakeServer, RecordedRequest } from '../server.js';
import { createServiceFake } from './kit.js';

/** Recorded answers of Typeform, Wealthbox and Mem0. */
export const CRM_FIXTURES = {
  typeformResponses: {
    total_items: 2,
    page_count: 1,
    items: [
      { response_id: 'r1', submitted_at: '2025-05-01T10:00:00Z', answers: [{ field: { id: 'f1', type: 'short_text' }, type: 'text', text: 'Ada' }] },
      { response_id: 'r2', submitted_at: '2025-05-02T10:00:00Z', answers: [] },
    ],
  },
  typeformFile: 'PDF-1.7 fake file bytes',
  typeformInsights: { form: { id: 'form1', summary: { responses_count: 2, completion_rate: 50 } }, fields: [{ id: 'f1', title: 'Name', views: 2, dropoffs: 0 }] },
  contact: {
    id: 101,
    first_name: 'Ada',
    last_name: 'Lovelace',
    company_name: 'Analytical',
    background_information: 'Mathematician',
    email_addresses: [{ address: 'ada@weft.example', principal: true, kind: 'Work' }],
    phone_numbers: [],
  },
  contacts: { contacts: [{ id: 101, first_name: 'Ada', last_name: 'Lovelace', email_addresses: [{ address: 'ada@weft.example', principal: true }] }], meta: { total_count: 1, current_page: 1, total_pages: 1 } },
  note: { id: 201, content: 'Called Ada', created_at: '2025-05-01 10:00 AM -0400', updated_at: '2025-05-01 10:00 AM -0400', visible_to: 'Everyone', linked_to: [{ id: 101, type: 'Contact', name: 'Ada Lovelace' }], tags: [] },
  notes: { notes: [{ id: 201, content: 'Called Ada' }, { id: 202, content: 'Sent offer' }], meta: { total_count: 2 } },
  task: { id: 301, name: 'Follow up', due_date: '2025-05-24 11:00 AM -0400', complete: false, priority: 'Medium', category: 1, visible_to: 'Everyone', linked_to: [{ id: 101, type: 'Contact' }] },
  tasks: { tasks: [{ id: 301, name: 'Follow up', due_date: '2025-05-24 11:00 AM -0400' }], meta: { total_count: 1, current_page: 1, total_pages: 1 } },
  mem0Added: [{ id: 'mem-1', data: { memory: 'Likes tea' }, event: 'ADD' }],
  mem0Search: [{ id: 'mem-1', memory: 'Likes tea', user_id: 'u1', score: 0.9, created_at: '2025-05-01T10:00:00Z' }],
  mem0Memory: { id: 'mem-1', memory: 'Likes tea', user_id: 'u1', created_at: '2025-05-01T10:00:00Z' },
};

/** A Wealthbox record by the path's id: the fixture of that id, any other 404. */
const wealthboxRecord = (record: { id: number }) => (req: RecordedRequest): FakeAnswer =>
  req.path.split('/').pop() === String(record.id) ? { json: record } : { status: 404, json: {} };

/** A fake of Typeform (/typeform), Wealthbox (/wealthbox; a contact or task by id: the fixture's only) and Mem0 (/mem0). */
export function createFakeCrm(): Promise<FakeServer> {
  const f = CRM_FIXTURES;
  const echo = (extra: Record<string, unknown>) => (req: { body: unknown }) => ({ json: { ...extra, ...(req.body as Record<string, unknown>) } });
  return createServiceFake([
    ['GET', '/typeform/forms/:form/responses', { json: f.typeformResponses }],
    ['GET', '/typeform/forms/:form/responses/:response/fields/:field/files/:file', { text: f.typeformFile, headers: { 'content-type': 'application/pdf' } }],
    ['GET', '/typeform/insights/:form/summary', { json: f.typeformInsights }],
    ['GET', '/wealthbox/contacts/:id', wealthboxRecord(f.contact)],
    ['GET', '/wealthbox/contacts', { json: f.contacts }],
    ['POST', '/wealthbox/contacts', echo({ id: 102 })],
    ['GET', '/wealthbox/notes/:id', { json: f.note }],
    ['GET', '/wealthbox/notes', { json: f.notes }],
    ['POST', '/wealthbox/notes', echo({ id: 203 })],
    ['GET', '/wealthbox/tasks/:id', wealthboxRecord(f.task)],
    ['GET', '/wealthbox/tasks', { json: f.tasks }],
    ['POST', '/wealthbox/tasks', echo({ id: 302 })],
    // Mem0 queues an add unless async_mode is false, answering only the queued event.
    [
      'POST',
      '/mem0/v1/memories/',
      (req) => ({
        json: (req.body as { async_mode?: unknown } | undefined)?.async_mode === false ? f.mem0Added : { results: [{ message: 'Memory processing has been queued for background execution', status: 'PENDING', event_id: 'evt-1' }] },
      }),
    ],
    ['POST', '/mem0/v2/memories/search/', { json: f.mem0Search }],
    ['POST', '/mem0/v2/memories/', { json: f.mem0Search }],
    ['GET', '/mem0/v1/memories/:id/', { json: f.mem0Memory }],
  ]);
}
