import type { FakeAnswer, FakeServer, RecordedRequest } from '../server.js';
import { createServiceFake } from './kit.js';

const event = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  htmlLink: `https://www.google.com/calendar/event?eid=${id}`,
  status: 'confirmed',
  summary: 'Planning',
  description: 'Quarterly planning',
  location: 'Room 1',
  start: { dateTime: '2025-06-01T10:00:00Z' },
  end: { dateTime: '2025-06-01T11:00:00Z' },
  attendees: [{ email: 'ada@acme.example.invalid', responseStatus: 'accepted' }],
  creator: { email: 'me@acme.example.invalid' },
  organizer: { email: 'me@acme.example.invalid' },
  ...extra,
});

const FOLDER = 'application/vnd.google-apps.folder';
const SPREADSHEET = 'application/vnd.google-apps.spreadsheet';
const DOCUMENT = 'application/vnd.google-apps.document';
const item = (id: string, name: string, mimeType: string, modifiedTime: string) => ({ id, name, mimeType, modifiedTime });

/** Recorded answers of Google Sheets, Drive, Docs and Calendar. */
export const GOOGLE_FIXTURES = {
  sheetValues: { range: 'Sheet1!A1:B2', majorDimension: 'ROWS', values: [['name', 'age'], ['Ada', '36']] },
  sheetUpdate: { spreadsheetId: 'sheet-1', updatedRange: 'Sheet1!A2:B3', updatedRows: 2, updatedColumns: 2, updatedCells: 4 },
  sheetAppend: { spreadsheetId: 'sheet-1', tableRange: 'Sheet1!A1:B3', updates: { updatedRange: 'Sheet1!A4:B4', updatedRows: 1, updatedColumns: 2, updatedCells: 2 } },
  driveFile: (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    name: 'notes.txt',
    mimeType: 'text/plain',
    webViewLink: `https://drive.google.com/file/d/${id}/view`,
    webContentLink: `https://drive.google.com/uc?id=${id}`,
    size: '11',
    createdTime: '2025-05-01T10:00:00.000Z',
    modifiedTime: '2025-05-01T10:00:01.000Z',
    parents: ['folder-1'],
    ...extra,
  }),
  /** The Drive a `files` query with a mimeType clause searches, most recently modified first. */
  driveItems: [
    item('sh-budget', 'Budget 2025', SPREADSHEET, '2025-05-03T10:00:00.000Z'),
    item('fo-reports', 'Reports', FOLDER, '2025-05-02T09:00:00.000Z'),
    item('do-spec', 'Product spec', DOCUMENT, '2025-05-02T08:00:00.000Z'),
    item('sh-hiring', "Hiring plan (Bob's)", SPREADSHEET, '2025-05-01T10:00:00.000Z'),
    item('fo-archive', 'Archive', FOLDER, '2025-04-01T10:00:00.000Z'),
    item('sh-budget-old', 'Budget 2024', SPREADSHEET, '2024-12-01T10:00:00.000Z'),
  ],
  calendarList: {
    items: [
      { id: 'me@acme.example.invalid', summary: 'me@acme.example.invalid', primary: true, accessRole: 'owner' },
      { id: 'team@group.calendar.example.invalid', summary: 'Team', summaryOverride: 'Team events', accessRole: 'writer' },
      { id: 'holidays@group.v.calendar.google.com', summary: 'Holidays', accessRole: 'reader' },
    ],
  },
  driveList: { files: [{ id: 'f1', name: 'a.txt', mimeType: 'text/plain' }, { id: 'f2', name: 'Doc', mimeType: 'application/vnd.google-apps.document' }], nextPageToken: 'next-2' },
  document: {
    documentId: 'doc-1',
    title: 'Spec',
    body: {
      content: [
        { sectionBreak: {} },
        { paragraph: { elements: [{ textRun: { content: 'Hello ' } }, { textRun: { content: 'world\n' } }] } },
        { paragraph: { elements: [{ textRun: { content: 'Second line\n' } }] } },
      ],
    },
  },
  batchUpdate: { documentId: 'doc-1', replies: [{}] },
  event,
  eventList: { timeZone: 'UTC', nextPageToken: 'ev-next', items: [event('ev-1'), event('ev-2', { summary: 'Retro' })] },
};

/**
 * Drive's `files` list: a query with a `mimeType = '…'` clause is answered from `driveItems` (that
 * type, `name contains '…'` as Drive matches it, `pageSize` a page from the `pageToken` `p<offset>`);
 * any other query answers the recorded `driveList`.
 */
function driveFiles(req: RecordedRequest): FakeAnswer {
  const q = req.query.q ?? '';
  const mime = /mimeType = '([^']+)'/.exec(q)?.[1];
  if (!mime) return { json: GOOGLE_FIXTURES.driveList };
  const contains = /name contains '((?:[^'\\]|\\.)*)'/.exec(q)?.[1]?.replace(/\\(.)/g, '$1').toLowerCase();
  const matching = GOOGLE_FIXTURES.driveItems.filter((f) => f.mimeType === mime && (contains === undefined || f.name.toLowerCase().includes(contains)));
  const offset = req.query.pageToken?.startsWith('p') ? Number(req.query.pageToken.slice(1)) : 0;
  const size = Number(req.query.pageSize ?? 100) || 100;
  const files = matching.slice(offset, offset + size);
  return { json: { files, ...(offset + size < matching.length ? { nextPageToken: `p${offset + size}` } : {}) } };
}

/** Drive's `files/{id}`: an item of `driveItems` as it is, any other id the recorded text file. */
function driveFileById(id: string): unknown {
  return GOOGLE_FIXTURES.driveItems.find((f) => f.id === id) ?? GOOGLE_FIXTURES.driveFile(id);
}

/** Calendar's `users/me/calendarList/{id}`: a calendar of `calendarList`, else 404 as Calendar answers it. */
function calendarListEntry(req: RecordedRequest): FakeAnswer {
  const id = decodeURIComponent(req.path.split('/').pop() ?? '');
  const found = GOOGLE_FIXTURES.calendarList.items.find((c) => c.id === id);
  return found ? { json: found } : { status: 404, json: { error: { code: 404, message: 'Not Found', errors: [{ domain: 'global', reason: 'notFound', message: 'Not Found' }] } } };
}

/** A fake of the Google APIs: Sheets (/v4), Drive (/drive/v3, /upload/drive/v3), Docs (/v1/documents), Calendar (/calendar/v3). */
export function createFakeGoogle(): Promise<FakeServer> {
  const f = GOOGLE_FIXTURES;
  return createServiceFake([
    ['GET', '/v4/spreadsheets/:id/values/:range', { json: f.sheetValues }],
    ['PUT', '/v4/spreadsheets/:id/values/:range', { json: f.sheetUpdate }],
    ['POST', '/v4/spreadsheets/:id/values/:range', { json: f.sheetAppend }],
    ['POST', '/drive/v3/files', (req) => ({ json: f.driveFile('new-1', { name: (req.body as { name?: string }).name, mimeType: (req.body as { mimeType?: string }).mimeType }) })],
    ['PATCH', '/upload/drive/v3/files/:id', { json: { id: 'new-1' } }],
    ['PATCH', '/drive/v3/files/:id', { json: { id: 'new-1' } }],
    ['GET', '/drive/v3/files', driveFiles],
    ['GET', '/drive/v3/files/:id', (req) => (req.query.alt === 'media' ? { text: 'file bytes!' } : { json: driveFileById(req.path.split('/').pop() ?? '') })],
    ['GET', '/drive/v3/files/:id/export', { text: 'Exported text' }],
    ['GET', '/v1/documents/:id', { json: f.document }],
    ['POST', '/v1/documents/:id', { json: f.batchUpdate }],
    ['POST', '/calendar/v3/calendars/:cal/events', (req) => ({ json: event('ev-new', { summary: (req.body as { summary?: string }).summary }) })],
    ['GET', '/calendar/v3/calendars/:cal/events', { json: f.eventList }],
    ['GET', '/calendar/v3/users/me/calendarList', { json: f.calendarList }],
    ['GET', '/calendar/v3/users/me/calendarList/:id', calendarListEntry],
    ['GET', '/calendar/v3/calendars/:cal/events/:id', (req) => ({ json: event(req.path.split('/').pop() ?? '') })],
    ['POST', '/calendar/v3/calendars/:cal/events/quickAdd', { json: event('ev-quick', { summary: 'Lunch with Ada', attendees: undefined }) }],
    ['PATCH', '/calendar/v3/calendars/:cal/events/:id', (req) => ({ json: event(req.path.split('/').pop() ?? '', { summary: 'Lunch with Ada', ...(req.body as object) }) })],
    ['PUT', '/calendar/v3/calendars/:cal/events/:id', (req) => ({ json: req.body })],
  ]);
}
