import type { FakeAnswer, FakeServer, RecordedRequest } from '../server.js';
import { createServiceFake } from './kit.js';

const person = (name: string, address: string) => ({ emailAddress: { name, address } });

/** Recorded Microsoft Graph answers (v1.0): Outlook mail, Teams messages, Excel ranges and tables. */
export const MICROSOFT_FIXTURES = {
  draft: { id: 'AAMkDraft1', subject: 'Quarterly numbers', isDraft: true },
  mail: {
    value: [
      {
        id: 'AAMkMail1',
        subject: 'Hello',
        bodyPreview: 'Hi Ada',
        body: { contentType: 'html', content: '<p>Hi Ada</p>' },
        sender: person('Bob', 'bob@weft.example'),
        from: person('Bob', 'bob@weft.example'),
        toRecipients: [person('Ada', 'ada@weft.example')],
        ccRecipients: [],
        receivedDateTime: '2025-05-01T10:00:00Z',
        sentDateTime: '2025-05-01T09:59:58Z',
        hasAttachments: false,
        isRead: true,
        importance: 'normal',
      },
    ],
  },
  chatMessages: {
    value: [
      { id: 'm2', messageType: 'message', createdDateTime: '2025-05-01T10:01:00Z', from: { user: { displayName: 'Ada' } }, body: { contentType: 'html', content: '<p>Ship it</p>' }, attachments: [] },
      { id: 'm1', messageType: 'message', createdDateTime: '2025-05-01T10:00:00Z', from: { application: { displayName: 'Weft Bot' } }, body: { contentType: 'text', content: 'Build green' }, attachments: [{ id: 'a1', name: 'log.txt' }] },
    ],
  },
  postedMessage: { id: 'm3', createdDateTime: '2025-05-01T10:02:00Z', webUrl: 'https://teams.example.invalid/l/message/m3', body: { content: 'Hello' } },
  range: { address: 'Sheet1!A1:B2', values: [['name', 'score'], ['ada', 9]] },
  tableRow: { index: 4, values: [['bob', 7]] },
  mailFolders: {
    value: [
      { id: 'AAMkInbox', displayName: 'Inbox', totalItemCount: 12, unreadItemCount: 3 },
      { id: 'AAMkSent', displayName: 'Sent Items', totalItemCount: 40, unreadItemCount: 0 },
      { id: 'AAMkArchive', displayName: 'Archive', totalItemCount: 7, unreadItemCount: 0 },
    ],
  },
  /** Folders inside the top-level ones: `me/mailFolders` does not list them, `me/mailFolders/{id}` answers them. */
  childFolders: [{ id: 'AAMkReceipts', displayName: 'Receipts', parentFolderId: 'AAMkInbox', totalItemCount: 4, unreadItemCount: 1 }],
  joinedTeams: { value: [{ id: 'team-eng', displayName: 'Engineering', description: 'Builders' }, { id: 'team-ops', displayName: 'Operations', description: null }] },
  channels: { value: [{ id: '19:general@thread.tacv2', displayName: 'General', membershipType: 'standard' }, { id: '19:incidents@thread.tacv2', displayName: 'Incidents', membershipType: 'private' }] },
  chats: {
    value: [
      { id: '19:chat-topic@thread.v2', topic: 'Release planning', chatType: 'group', members: [] },
      { id: '19:ada_bob@unq.gbl.spaces', topic: null, chatType: 'oneOnOne', members: [{ displayName: 'Ada' }, { displayName: 'Bob' }] },
    ],
  },
  driveSearch: {
    value: [
      { id: 'wb-sales', name: 'Sales.xlsx', file: { mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }, parentReference: { path: '/drive/root:/Reports' } },
      { id: 'doc-notes', name: 'xlsx notes.docx', file: { mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }, parentReference: { path: '/drive/root:' } },
      { id: 'wb-budget', name: 'Budget.xlsx', file: { mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }, parentReference: { path: '/drive/root:' } },
    ],
  },
};

/** Graph's error answer. */
const graphError = (status: number, code: string, message: string): FakeAnswer => ({ status, json: { error: { code, message } } });

/** The path's segments (decoded) after its first `skip` ones. */
const segments = (req: RecordedRequest, skip: number) => req.path.split('/').slice(skip + 1).map(decodeURIComponent);

/**
 * One item by id, as Graph answers it: mail folders (top-level and child; an id that is no mailbox id,
 * like a folder's name, 400 `ErrorInvalidIdMalformed`), drive items of the drive search, joined teams,
 * chats (their members only with `$expand=members`), a joined team's channels; else 404.
 */
const byId = {
  mailFolder(req: RecordedRequest): FakeAnswer {
    const [id = ''] = segments(req, 2);
    const found = [...MICROSOFT_FIXTURES.mailFolders.value, ...MICROSOFT_FIXTURES.childFolders].find((f) => f.id === id);
    if (found) return { json: found };
    return id.startsWith('AAMk') ? graphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.') : graphError(400, 'ErrorInvalidIdMalformed', 'Id is malformed.');
  },
  driveItem(req: RecordedRequest): FakeAnswer {
    const [id = ''] = segments(req, 3);
    const found = MICROSOFT_FIXTURES.driveSearch.value.find((i) => i.id === id);
    return found ? { json: found } : graphError(404, 'itemNotFound', 'The resource could not be found.');
  },
  team(req: RecordedRequest): FakeAnswer {
    const [id = ''] = segments(req, 1);
    const found = MICROSOFT_FIXTURES.joinedTeams.value.find((t) => t.id === id);
    return found ? { json: found } : graphError(404, 'NotFound', `No team found with Group Id ${id}`);
  },
  chat(req: RecordedRequest): FakeAnswer {
    const [id = ''] = segments(req, 1);
    const found = MICROSOFT_FIXTURES.chats.value.find((c) => c.id === id);
    if (!found) return graphError(404, 'NotFound', 'Resource not found.');
    const { members, ...chat } = found;
    return { json: (req.query.$expand ?? '').split(',').includes('members') ? { ...chat, members } : chat };
  },
  channel(req: RecordedRequest): FakeAnswer {
    const [team = '', , channel = ''] = segments(req, 1);
    const found = MICROSOFT_FIXTURES.joinedTeams.value.some((t) => t.id === team) ? MICROSOFT_FIXTURES.channels.value.find((c) => c.id === channel) : undefined;
    return found ? { json: found } : graphError(404, 'NotFound', 'Channel not found.');
  },
};

/**
 * A fake Microsoft Graph: /me/sendMail, /me/messages, mail folders and their messages, joined teams,
 * chats, a team's channels, chat and channel messages, drive search, workbook ranges and table rows,
 * and one folder, drive item, team, chat or channel by id.
 */
export function createFakeMicrosoft(): Promise<FakeServer> {
  const f = MICROSOFT_FIXTURES;
  return createServiceFake([
    ['POST', '/me/sendMail', { status: 202 }],
    ['POST', '/me/messages', { status: 201, json: f.draft }],
    ['GET', '/me/mailFolders/:folder/messages', { json: f.mail }],
    [
      'GET',
      '/me/mailFolders',
      // Graph's `$filter=displayName eq '…'` over the top-level folders ('' escaping a quote).
      (req) => {
        const name = /^displayName eq '((?:[^']|'')*)'$/.exec(req.query.$filter ?? '')?.[1]?.replace(/''/g, "'");
        return { json: name === undefined ? f.mailFolders : { value: f.mailFolders.value.filter((folder) => folder.displayName === name) } };
      },
    ],
    ['GET', '/me/mailFolders/:folder', byId.mailFolder],
    ['GET', '/me/joinedTeams', { json: f.joinedTeams }],
    ['GET', '/me/chats', { json: f.chats }],
    ['GET', '/teams/:team', byId.team],
    ['GET', '/chats/:chat', byId.chat],
    ['GET', '/teams/:team/channels', { json: f.channels }],
    ['GET', '/teams/:team/channels/:channel', byId.channel],
    ['GET', '/me/drive/items/:id', byId.driveItem],
    ['GET', '/me/drive/root/search(q=:q)', { json: f.driveSearch }],
    ['GET', '/chats/:chat/messages', { json: f.chatMessages }],
    ['POST', '/chats/:chat/messages', { status: 201, json: f.postedMessage }],
    ['GET', '/teams/:team/channels/:channel/messages', { json: f.chatMessages }],
    ['POST', '/teams/:team/channels/:channel/messages', { status: 201, json: f.postedMessage }],
    ['GET', '/me/drive/items/:id/workbook/worksheets(:sheet)/range(:address)', { json: f.range }],
    ['PATCH', '/me/drive/items/:id/workbook/worksheets(:sheet)/range(:address)', (req) => ({ json: { address: 'Sheet1!B2:C3', values: (req.body as { values?: unknown }).values } })],
    ['POST', '/me/drive/items/:id/workbook/tables/:table/rows/add', { status: 201, json: f.tableRow }],
  ]);
}
