import { AppError } from '@weft/platform';
import { list, obj, seg, str, type Obj } from '../../../tools/services/http.js';
import { choice, collectPages, PAGE_LIMIT, type SelectorItem } from '../paging.js';
import type { SelectorLister } from '../lister.js';
import type { Absent, ProviderClient } from '../provider.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Graph's next page as our page token: the `$skiptoken` (`t:`) or `$skip` (`s:`) of its
 * `@odata.nextLink`. The link itself is never kept, so a cursor cannot send the token anywhere else.
 */
function graphNext(data: Obj): string | undefined {
  const link = str(data['@odata.nextLink']);
  if (!link) return undefined;
  let params: URLSearchParams;
  try {
    params = new URL(link).searchParams;
  } catch {
    return undefined;
  }
  const token = params.get('$skiptoken');
  if (token) return `t:${token}`;
  const skip = params.get('$skip');
  return skip && /^\d+$/.test(skip) ? `s:${skip}` : undefined;
}

/** The query parameter a page token stands for. */
function graphPage(page: string | undefined): Record<string, string> {
  if (page === undefined) return {};
  if (page.startsWith('t:') && page.length > 2) return { $skiptoken: page.slice(2) };
  if (/^s:\d{1,9}$/.test(page)) return { $skip: page.slice(2) };
  throw new AppError('validation', 'cursor is not a nextCursor this list answered');
}

/** One Graph list (`value` and its next link) under the configured Graph base URL. */
async function graphList(client: ProviderClient, path: string, query: Record<string, unknown>, page: string | undefined): Promise<{ values: Obj[]; next: string | undefined }> {
  const data = obj(await client.request({ url: `${client.io.baseUrl('microsoftGraph')}${path}`, query: { ...query, ...graphPage(page) } }));
  return { values: list(data.value).map(obj), next: graphNext(data) };
}

/**
 * Graph has no such item: 404, or (Outlook's mailbox) 400 `ErrorInvalidIdMalformed` for an id that is
 * no id at all (a folder's name typed in).
 */
const graphAbsent: Absent = (status, data) => status === 404 || (status === 400 && obj(obj(data).error).code === 'ErrorInvalidIdMalformed');

/** One Graph item (`null`: none) under the configured Graph base URL. */
async function graphItem(client: ProviderClient, path: string, query: Record<string, unknown> = {}): Promise<Obj | null> {
  const found = await client.find({ url: `${client.io.baseUrl('microsoftGraph')}${path}`, query }, graphAbsent);
  return found === null ? null : obj(found);
}

/** A mail folder as the selector shows it: its name, its unread count as the second line. */
function folderItem(f: Obj): SelectorItem {
  const unread = typeof f.unreadItemCount === 'number' && f.unreadItemCount > 0 ? f.unreadItemCount : 0;
  return choice(f.id, String(f.displayName ?? f.id ?? ''), unread > 0 && `${unread} unread`);
}

/** Outlook mail folders (`me/mailFolders`), by `$skip`; a search filters by name here. */
export const outlookFolders: SelectorLister = {
  provider: 'Outlook',
  what: 'Outlook folders',
  list: ({ client, search, position }) =>
    collectPages(
      async (page) => {
        const { values, next } = await graphList(client, '/me/mailFolders', { $top: PAGE_LIMIT }, page);
        return { items: values.map(folderItem), next };
      },
      position,
      { filter: search },
    ),
  /** One folder by id (`me/mailFolders/{id}`), a child folder too (the Outlook tools read any). */
  async get({ client }, id) {
    const folder = await graphItem(client, `/me/mailFolders/${seg(id)}`);
    return folder && folderItem(folder);
  },
};

/** An OData string literal inside a path (`search(q='…')`): single quotes doubled. */
function odataString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** The folder of a drive item (`/drive/root:/Reports` → `/Reports`). */
function folderOf(item: Obj): string | undefined {
  const path = str(obj(item.parentReference).path);
  if (path === undefined) return undefined;
  const at = path.indexOf('root:');
  return at === -1 ? undefined : path.slice(at + 'root:'.length) || '/';
}

/** Whether a drive item is an .xlsx workbook (by its MIME type or name). */
const isWorkbook = (i: Obj) => str(obj(i.file).mimeType) === XLSX || (str(i.name) ?? '').toLowerCase().endsWith('.xlsx');
const workbookItem = (i: Obj): SelectorItem => choice(i.id, String(i.name ?? i.id ?? ''), folderOf(i));
const DRIVE_ITEM_FIELDS = 'id,name,file,parentReference';

/**
 * Microsoft Excel workbooks: a drive search (`me/drive/root/search(q='…')`, the search text or
 * `xlsx`) whose answer keeps the .xlsx workbooks; paged by `$skiptoken`.
 */
export const excelWorkbooks: SelectorLister = {
  provider: 'Microsoft Excel',
  what: 'Microsoft Excel workbooks',
  list: ({ client, search, position }) =>
    collectPages(
      async (page) => {
        const path = `/me/drive/root/search(q=${seg(odataString(search ?? 'xlsx'))})`;
        const { values, next } = await graphList(client, path, { $top: PAGE_LIMIT, $select: DRIVE_ITEM_FIELDS }, page);
        return { items: values.filter(isWorkbook).map(workbookItem), next };
      },
      position,
      { scan: true },
    ),
  /** One drive item by id (`me/drive/items/{id}`); an item that is no .xlsx workbook is none, as the list keeps those only. */
  async get({ client }, id) {
    const item = await graphItem(client, `/me/drive/items/${seg(id)}`, { $select: DRIVE_ITEM_FIELDS });
    return item && isWorkbook(item) ? workbookItem(item) : null;
  },
};

/** A description as a second line: one line, at most 100 characters. */
function line(value: unknown): string | undefined {
  const text = typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
  if (!text) return undefined;
  return text.length > 100 ? `${text.slice(0, 99)}…` : text;
}

/** A team as the selector shows it: its name, its description as the second line. */
const teamItem = (t: Obj): SelectorItem => choice(t.id, String(t.displayName ?? t.id ?? ''), line(t.description));

/** Microsoft Teams teams the account joined (`me/joinedTeams`); a search filters by name here. */
export const teamsTeams: SelectorLister = {
  provider: 'Microsoft Teams',
  what: 'Microsoft Teams teams',
  list: ({ client, search, position }) =>
    collectPages(
      async (page) => {
        const { values, next } = await graphList(client, '/me/joinedTeams', {}, page);
        return { items: values.map(teamItem), next };
      },
      position,
      { filter: search },
    ),
  /** One team by id (`teams/{id}`). */
  async get({ client }, id) {
    const team = await graphItem(client, `/teams/${seg(id)}`);
    return team && teamItem(team);
  },
};

const CHAT_TYPES: Record<string, string> = { oneOnOne: 'One-on-one chat', group: 'Group chat', meeting: 'Meeting chat' };

/** The name of a chat: its topic, else its members' names. */
function chatName(chat: Obj): string {
  const topic = str(chat.topic);
  if (topic) return topic;
  const members = list(chat.members).map((m) => str(obj(m).displayName)).filter((n): n is string => Boolean(n));
  return members.length ? members.join(', ') : String(chat.id ?? '');
}

/** A chat as the selector shows it: its name, its type as the second line. */
const chatItem = (c: Obj): SelectorItem => choice(c.id, chatName(c), CHAT_TYPES[String(c.chatType ?? '')]);

/** Microsoft Teams chats (`me/chats` with their members, 50 a page as Graph allows), by `$skiptoken`; a search filters by name here. */
export const teamsChats: SelectorLister = {
  provider: 'Microsoft Teams',
  what: 'Microsoft Teams chats',
  list: ({ client, search, position }) =>
    collectPages(
      async (page) => {
        const { values, next } = await graphList(client, '/me/chats', { $top: 50, $expand: 'members' }, page);
        return { items: values.map(chatItem), next };
      },
      position,
      { filter: search },
    ),
  /** One chat by id, with its members (`chats/{id}?$expand=members`). */
  async get({ client }, id) {
    const chat = await graphItem(client, `/chats/${seg(id)}`, { $expand: 'members' });
    return chat && chatItem(chat);
  },
};

/** A channel as the selector shows it: its name, a private or shared one marked. */
const channelItem = (c: Obj): SelectorItem =>
  choice(c.id, String(c.displayName ?? c.id ?? ''), c.membershipType === 'private' ? 'Private channel' : c.membershipType === 'shared' && 'Shared channel');

/** The channels of one team (`teams/{teamId}/channels`); a search filters by name here. */
export const teamsChannels: SelectorLister = {
  provider: 'Microsoft Teams',
  what: 'Microsoft Teams channels',
  needs: { teamId: ['teamId', 'manualTeamId'] },
  list: ({ client, search, position, inputs }) =>
    collectPages(
      async (page) => {
        const { values, next } = await graphList(client, `/teams/${seg(inputs.teamId ?? '')}/channels`, {}, page);
        return { items: values.map(channelItem), next };
      },
      position,
      { filter: search },
    ),
  /** One channel of the team by id (`teams/{teamId}/channels/{id}`). */
  async get({ client, inputs }, id) {
    const channel = await graphItem(client, `/teams/${seg(inputs.teamId ?? '')}/channels/${seg(id)}`);
    return channel && channelItem(channel);
  },
};
