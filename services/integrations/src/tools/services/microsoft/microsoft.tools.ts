import { EXCEL_DEFAULTS, OUTLOOK_READ, TEAMS_FETCH_LIMIT, clamp, parseJson, text, toInt } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { toRows } from '../googleSheets/googleSheets.tools.js';
import { apiMessage, bearer, call, list, obj, RATE_LIMITED, requireText, seg, serviceTool, type ApiResponse, type CallSpec, type Obj } from '../http.js';

type Product = 'Outlook' | 'Microsoft Teams' | 'Microsoft Excel';

const REAUTH = 'Invalid or expired access token. Please reauthenticate.';

/** The §8 messages of a failed Microsoft Graph answer. */
function failure(res: ApiResponse, product: Product): ToolError {
  if (res.status === 401) return new ToolError(REAUTH, 401);
  if (res.status === 429 && product === 'Outlook') return new ToolError('Outlook API quota exceeded. Please try again later.', 429);
  return new ToolError(`${product} API error: ${apiMessage(res)}`, res.status);
}

/** One Microsoft Graph request with the account's token; 'Access token is required' without one (§5). */
async function graph(io: ToolIO, p: Obj, product: Product, spec: Omit<CallSpec, 'url'> & { path: string }): Promise<Obj> {
  if (text(p.accessToken) === '') throw new ToolError('Access token is required');
  const { path, ...rest } = spec;
  const res = await call(io, { ...rest, url: `${io.baseUrl('microsoftGraph')}${path}`, headers: bearer(p.accessToken), ...(product === 'Outlook' ? { answerStatuses: RATE_LIMITED } : {}) });
  if (!res.ok) throw failure(res, product);
  return obj(res.data);
}

const required = (p: Obj, name: string, label: string) => requireText(p, name, `${label} is required`);

// ---------------------------------------------------------------- Outlook

const recipient = (value: unknown) => {
  const e = obj(obj(value).emailAddress);
  return { name: e.name ?? '', address: e.address ?? '' };
};

/** An Outlook email (§3). */
function outlookEmail(value: unknown) {
  const m = obj(value);
  return {
    id: m.id,
    subject: m.subject ?? '',
    bodyPreview: m.bodyPreview ?? '',
    body: { contentType: obj(m.body).contentType ?? 'text', content: obj(m.body).content ?? '' },
    sender: recipient(m.sender),
    from: recipient(m.from),
    toRecipients: list(m.toRecipients).map(recipient),
    ccRecipients: list(m.ccRecipients).map(recipient),
    receivedDateTime: m.receivedDateTime,
    sentDateTime: m.sentDateTime,
    hasAttachments: m.hasAttachments === true,
    isRead: m.isRead === true,
    importance: m.importance ?? 'normal',
  };
}

/** The message of a send or draft: subject, text body, one recipient per comma-separated address. */
function message(p: Obj): Obj {
  return {
    subject: String(p.subject ?? ''),
    body: { contentType: 'Text', content: String(p.body ?? '') },
    toRecipients: text(p.to)
      .split(',')
      .map((a) => a.trim())
      .filter((a) => a !== '')
      .map((address) => ({ emailAddress: { address } })),
  };
}

/** Graph's well-known mail folder names for the folder names the block suggests (INBOX, SENT, DRAFTS, …), any case. */
const WELL_KNOWN_FOLDERS: Record<string, string> = {
  inbox: 'inbox',
  sent: 'sentitems',
  sentitems: 'sentitems',
  'sent items': 'sentitems',
  draft: 'drafts',
  drafts: 'drafts',
  trash: 'deleteditems',
  deleted: 'deleteditems',
  deleteditems: 'deleteditems',
  'deleted items': 'deleteditems',
  spam: 'junkemail',
  junk: 'junkemail',
  junkemail: 'junkemail',
  'junk email': 'junkemail',
  archive: 'archive',
  outbox: 'outbox',
};

/** A mailbox folder id as Graph gives them (the folder selector stores these). */
const FOLDER_ID = /^(AAMk|AQMk)[A-Za-z0-9+/=_-]*$/;

/**
 * The mail folder to read, as Graph takes it: a well-known name for the block's names, an id as
 * given, else a top-level folder's display name looked up to its id (Graph refuses a display name
 * as the folder of /me/mailFolders/{folder}).
 */
async function mailFolder(io: ToolIO, p: Obj): Promise<string> {
  const folder = text(p.folder) || 'inbox';
  const known = WELL_KNOWN_FOLDERS[folder.toLowerCase()];
  if (known) return known;
  if (FOLDER_ID.test(folder)) return folder;
  const found = await graph(io, p, 'Outlook', { path: '/me/mailFolders', query: { $filter: `displayName eq '${folder.replace(/'/g, "''")}'`, $select: 'id,displayName' } });
  const id = obj(list(found.value)[0]).id;
  if (typeof id !== 'string') {
    throw new ToolError(`Outlook folder not found: ${folder}. Give a folder id, a well-known folder (inbox, sentitems, drafts, deleteditems, junkemail, archive, outbox) or a top-level folder's name.`);
  }
  return id;
}

const outlookTools: ServiceTool[] = [
  serviceTool('outlook_send', async (p, io) => {
    await graph(io, p, 'Outlook', { method: 'POST', path: '/me/sendMail', json: { message: message(p), saveToSentItems: true } });
    return { message: 'Email sent successfully', results: { status: 'sent', timestamp: new Date().toISOString() } };
  }),
  serviceTool('outlook_draft', async (p, io) => {
    const draft = await graph(io, p, 'Outlook', { method: 'POST', path: '/me/messages', json: message(p) });
    return { message: 'Email drafted successfully', results: { id: draft.id, subject: draft.subject ?? String(p.subject ?? ''), status: 'drafted', timestamp: new Date().toISOString() } };
  }),
  serviceTool('outlook_read', async (p, io) => {
    const folder = await mailFolder(io, p);
    const top = clamp(toInt(p.maxResults, OUTLOOK_READ.default), OUTLOOK_READ.min, OUTLOOK_READ.max);
    const data = await graph(io, p, 'Outlook', { path: `/me/mailFolders/${seg(folder)}/messages`, query: { $top: top, $orderby: 'receivedDateTime desc' } });
    const emails = list(data.value).map(outlookEmail);
    return { message: emails.length === 0 ? 'No emails found' : `Successfully read ${emails.length} email(s)`, results: emails };
  }),
];

// ---------------------------------------------------------------- Teams

/** A Teams message (§3): HTML tags dropped from the content. */
function teamsMessage(value: unknown) {
  const m = obj(value);
  const from = obj(m.from);
  const sender = obj(from.user).displayName ?? obj(from.application).displayName ?? 'Unknown';
  return {
    id: m.id,
    content: String(obj(m.body).content ?? '').replace(/<[^>]*>/g, '').trim(),
    sender,
    timestamp: m.createdDateTime,
    messageType: m.messageType ?? 'message',
    attachments: list(m.attachments),
  };
}

function readResult(data: Obj, where: Obj) {
  const messages = list(data.value).map(teamsMessage);
  const content = messages.map((m) => `[${String(m.timestamp ?? '')}] ${String(m.sender)}: ${m.content}`).join('\n');
  return { content, metadata: { ...where, messageCount: messages.length }, messages };
}

function writeResult(data: Obj, where: Obj) {
  return { updatedContent: true, metadata: { ...where, messageId: data.id, createdDateTime: data.createdDateTime, url: data.webUrl } };
}

const teamsTools: ServiceTool[] = [
  serviceTool('microsoft_teams_read_chat', async (p, io) => {
    const chatId = required(p, 'chatId', 'Chat ID');
    const data = await graph(io, p, 'Microsoft Teams', { path: `/chats/${seg(chatId)}/messages`, query: { $top: TEAMS_FETCH_LIMIT, $orderby: 'createdDateTime desc' } });
    return readResult(data, { chatId });
  }),
  serviceTool('microsoft_teams_read_channel', async (p, io) => {
    const teamId = required(p, 'teamId', 'Team ID');
    const channelId = required(p, 'channelId', 'Channel ID');
    const data = await graph(io, p, 'Microsoft Teams', { path: `/teams/${seg(teamId)}/channels/${seg(channelId)}/messages`, query: { $top: TEAMS_FETCH_LIMIT } });
    return readResult(data, { teamId, channelId });
  }),
  serviceTool('microsoft_teams_write_chat', async (p, io) => {
    const chatId = required(p, 'chatId', 'Chat ID');
    const content = required(p, 'content', 'Content');
    const data = await graph(io, p, 'Microsoft Teams', { method: 'POST', path: `/chats/${seg(chatId)}/messages`, json: { body: { content } } });
    return writeResult(data, { chatId });
  }),
  serviceTool('microsoft_teams_write_channel', async (p, io) => {
    const teamId = required(p, 'teamId', 'Team ID');
    const channelId = required(p, 'channelId', 'Channel ID');
    const content = required(p, 'content', 'Content');
    const data = await graph(io, p, 'Microsoft Teams', { method: 'POST', path: `/teams/${seg(teamId)}/channels/${seg(channelId)}/messages`, json: { body: { content } } });
    return writeResult(data, { teamId, channelId });
  }),
];

// ---------------------------------------------------------------- Excel

const RANGE = /^(.+)!([A-Za-z]{1,3})(\d+)(?::([A-Za-z]{1,3})(\d+))?$/;

interface ExcelRange {
  sheet: string;
  col: number;
  row: number;
  end?: { col: number; row: number };
}

function colNumber(letters: string): number {
  return [...letters.toUpperCase()].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0);
}

function colLetters(n: number): string {
  let s = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) s = String.fromCharCode(65 + ((k - 1) % 26)) + s;
  return s;
}

/** A range like Sheet1!A1:B2 or Sheet1!A1 ('Invalid range format' otherwise); a quoted sheet name is unquoted. */
function parseRange(value: string): ExcelRange {
  const m = RANGE.exec(value);
  if (!m) throw new ToolError('Invalid range format');
  const sheet = m[1]!.replace(/^'(.*)'$/, '$1').replace(/''/g, "'");
  const r: ExcelRange = { sheet, col: colNumber(m[2]!), row: Number(m[3]) };
  if (m[4] && m[5]) r.end = { col: colNumber(m[4]), row: Number(m[5]) };
  return r;
}

const address = (r: ExcelRange, end: { col: number; row: number } | undefined) =>
  `${colLetters(r.col)}${r.row}${end ? `:${colLetters(end.col)}${end.row}` : ''}`;

/** The workbook path of a worksheet range: the sheet name quoted for OData (quotes doubled). */
function rangePath(p: Obj, r: ExcelRange, addr: string): string {
  return `/me/drive/items/${seg(required(p, 'spreadsheetId', 'Spreadsheet ID'))}/workbook/worksheets('${encodeURIComponent(r.sheet.replace(/'/g, "''"))}')/range(address='${addr}')`;
}

/** Rows of a table add: a flat row is one row; objects become value rows in the first object's key order (§5). */
function tableRows(values: unknown): unknown[][] {
  const parsed = parseJson(values);
  if (!parsed.ok) throw new ToolError('Invalid JSON format for values');
  const rows = list(parsed.value);
  if (rows.length === 0) throw new ToolError('Values must be a non-empty array');
  if (rows.every((r) => typeof r === 'object' && r !== null && !Array.isArray(r))) {
    const keys = Object.keys(obj(rows[0]));
    return rows.map((r) => keys.map((k) => obj(r)[k] ?? ''));
  }
  return rows.every(Array.isArray) ? (rows as unknown[][]) : [rows];
}

/** Rows of a range write: a flat row is one row; arrays of objects become a header row plus rows (§5). */
function writeRows(values: unknown): unknown[][] {
  const parsed = parseJson(values);
  const flat = parsed.ok && Array.isArray(parsed.value) && parsed.value.length > 0 && parsed.value.every((v) => typeof v !== 'object' || v === null);
  return flat ? [parsed.value as unknown[]] : toRows(values);
}

const excelTools: ServiceTool[] = [
  serviceTool('microsoft_excel_read', async (p, io) => {
    const r = parseRange(text(p.range) || EXCEL_DEFAULTS.readRange);
    const data = await graph(io, p, 'Microsoft Excel', { path: rangePath(p, r, address(r, r.end)) });
    return { data: { range: data.address ?? `${r.sheet}!${address(r, r.end)}`, values: list(data.values) }, metadata: { spreadsheetId: text(p.spreadsheetId) } };
  }),
  serviceTool('microsoft_excel_write', async (p, io) => {
    const rows = writeRows(p.values);
    if (rows.length === 0) throw new ToolError('Values must be a non-empty array');
    const r = parseRange(text(p.range) || 'Sheet1!A1');
    const width = Math.max(...rows.map((row) => row.length));
    const padded = rows.map((row) => [...row, ...Array<string>(width - row.length).fill('')]);
    // Graph writes exactly the addressed cells: the range is the start cell grown to the values' size.
    const addr = address(r, { col: r.col + width - 1, row: r.row + padded.length - 1 });
    const body: Obj = { values: padded };
    // RAW keeps what was typed as text; USER_ENTERED (default) lets Excel parse numbers, dates and formulas.
    if (text(p.valueInputOption) === 'RAW') body.numberFormat = padded.map((row) => row.map(() => '@'));
    const data = await graph(io, p, 'Microsoft Excel', { method: 'PATCH', path: rangePath(p, r, addr), json: body });
    const out: Obj = {
      updatedRange: data.address ?? `${r.sheet}!${addr}`,
      updatedRows: padded.length,
      updatedColumns: width,
      updatedCells: padded.length * width,
      metadata: { spreadsheetId: text(p.spreadsheetId) },
    };
    if (p.includeValuesInResponse === true || p.includeValuesInResponse === 'true') out.values = list(data.values);
    return out;
  }),
  serviceTool('microsoft_excel_table_add', async (p, io) => {
    const tableName = text(p.tableName);
    if (tableName === '') throw new ToolError('Table name is required for table operations.');
    const rows = tableRows(p.values);
    const data = await graph(io, p, 'Microsoft Excel', {
      method: 'POST',
      path: `/me/drive/items/${seg(required(p, 'spreadsheetId', 'Spreadsheet ID'))}/workbook/tables/${seg(tableName)}/rows/add`,
      json: { values: rows },
    });
    return { index: data.index ?? null, values: list(data.values), metadata: { spreadsheetId: text(p.spreadsheetId), tableName } };
  }),
];

/** Microsoft Graph tools: Outlook mail, Teams chats and channels, Excel ranges and tables. */
export const microsoftTools: ServiceTool[] = [...outlookTools, ...teamsTools, ...excelTools];
