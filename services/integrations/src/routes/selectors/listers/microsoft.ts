import { AppError } from '@weft/platform';
import { list, obj, seg, str, type Obj } from '../../../tools/services/http.js';
import { choice, collectPages, PAGE_LIMIT, type SelectorItem } from '../paging.js';
import type { SelectorLister } from '../lister.js';
import type { ProviderClient } from '../provider.js';

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

/** Outlook mail folders (`me/mailFolders`), by `$skip`; a search filters by name here. */
export const outlookFolders: SelectorLister = {
  provider: 'Outlook',
  what: 'Outlook folders',
  list: ({ client, search, position }) =>
    collectPages(
      async (page) => {
        const { values, next } = await graphList(client, '/me/mailFolders', { $top: PAGE_LIMIT }, page);
        const items = values.map((f): SelectorItem => {
          const unread = typeof f.unreadItemCount === 'number' && f.unreadItemCount > 0 ? f.unreadItemCount : 0;
          return choice(f.id, String(f.displayName ?? f.id ?? ''), unread > 0 && `${unread} unread`);
        });
        return { items, next };
      },
      position,
      { filter: search },
    ),
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
        const { values, next } = await graphList(client, path, { $top: PAGE_LIMIT, $select: 'id,name,file,parentReference' }, page);
        const items = values
          .filter((i) => str(obj(i.file).mimeType) === XLSX || (str(i.name) ?? '').toLowerCase().endsWith('.xlsx'))
          .map((i): SelectorItem => {
            const folder = folderOf(i);
            return choice(i.id, String(i.name ?? i.id ?? ''), folder);
          });
        return { items, next };
      },
      position,
      { scan: true },
    ),
};

/** A description as a second line: one line, at most 100 characters. */
function line(value: unknown): string | undefined {
  const text = typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
  if (!text) return undefined;
  return text.length > 100 ? `${text.slice(0, 99)}…` : text;
}

/** Microsoft Teams teams the account joined (`me/joinedTeams`); a search filters by name here. */
export const teamsTeams: SelectorLister = {
  provider: 'Microsoft Teams',
  what: 'Microsoft Teams teams',
  list: ({ client, search, position }) =>
    collectPages(
      async (page) => {
        const { values, next } = await graphList(client, '/me/joinedTeams', {}, page);
        const items = values.map((t): SelectorItem => {
          const detail = line(t.description);
          return choice(t.id, String(t.displayName ?? t.id ?? ''), detail);
        });
        return { items, next };
      },
      position,
      { filter: search },
    ),
};

const CHAT_TYPES: Record<string, string> = { oneOnOne: 'One-on-one chat', group: 'Group chat', meeting: 'Meeting chat' };

/** The name of a chat: its topic, else its members' names. */
function chatName(chat: Obj): string {
  const topic = str(chat.topic);
  if (topic) return topic;
  const members = list(chat.members).map((m) => str(obj(m).displayName)).filter((n): n is string => Boolean(n));
  return members.length ? members.join(', ') : String(chat.id ?? '');
}

/** Microsoft Teams chats (`me/chats` with their members, 50 a page as Graph allows), by `$skiptoken`; a search filters by name here. */
export const teamsChats: SelectorLister = {
  provider: 'Microsoft Teams',
  what: 'Microsoft Teams chats',
  list: ({ client, search, position }) =>
    collectPages(
      async (page) => {
        const { values, next } = await graphList(client, '/me/chats', { $top: 50, $expand: 'members' }, page);
        const items = values.map((c): SelectorItem => {
          const type = CHAT_TYPES[String(c.chatType ?? '')];
          return choice(c.id, chatName(c), type);
        });
        return { items, next };
      },
      position,
      { filter: search },
    ),
};

/** The channels of one team (`teams/{teamId}/channels`); a search filters by name here. */
export const teamsChannels: SelectorLister = {
  provider: 'Microsoft Teams',
  what: 'Microsoft Teams channels',
  needs: { teamId: ['teamId', 'manualTeamId'] },
  list: ({ client, search, position, inputs }) =>
    collectPages(
      async (page) => {
        const { values, next } = await graphList(client, `/teams/${seg(inputs.teamId ?? '')}/channels`, {}, page);
        const items = values.map((c): SelectorItem => choice(c.id, String(c.displayName ?? c.id ?? ''), c.membershipType === 'private' ? 'Private channel' : c.membershipType === 'shared' && 'Shared channel'));
        return { items, next };
      },
      position,
      { filter: search },
    ),
};
