import { list, obj, seg, str, type Obj } from '../../../tools/services/http.js';
import { choice, collectPages, PAGE_LIMIT, type SelectorItem } from '../paging.js';
import type { SelectorLister } from '../lister.js';

/**
 * Gmail labels (`users/me/labels`, one answer without pages). The id is the label's name: the Gmail
 * tools read a folder as `in:<system label>` or `label:<name>` (gmailFolderQuery), which takes names.
 * No get-by-id: Gmail gets a label by its id, not its name (a stored choice is found in the list).
 */
export const gmailLabels: SelectorLister = {
  provider: 'Gmail',
  what: 'Gmail labels',
  list: ({ client, search, position }) =>
    collectPages(
      async () => {
        const data = obj(await client.request({ url: `${client.io.baseUrl('gmail')}/labels` }));
        const items = list(data.labels).map(obj).map((l): SelectorItem => {
          const name = String(l.name ?? l.id ?? '');
          return choice(name, name, l.type === 'system' && 'System label');
        });
        return { items };
      },
      position,
      { filter: search },
    ),
};

/** Drive's MIME types of the kinds a selector lists. */
export const DRIVE_MIME = {
  folder: 'application/vnd.google-apps.folder',
  spreadsheet: 'application/vnd.google-apps.spreadsheet',
  document: 'application/vnd.google-apps.document',
} as const;

/** A text inside a Drive query string: backslashes and single quotes escaped. */
function driveQuoted(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
}

/** The date part of an RFC 3339 time. */
function day(value: unknown): string | undefined {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : undefined;
}

/**
 * Google Drive items of one type: `files` with `q` on the MIME type (not trashed) and `name contains`
 * for a search, paged by `pageToken`, shared drives included, most recently changed first.
 */
export function driveFiles(mimeType: string, what: string): SelectorLister {
  const fileItem = (f: Obj): SelectorItem => {
    const modified = mimeType === DRIVE_MIME.folder ? undefined : day(f.modifiedTime);
    return choice(f.id, String(f.name ?? f.id ?? ''), modified && `Modified ${modified}`);
  };
  return {
    provider: 'Google Drive',
    what,
    list: ({ client, search, position }) =>
      collectPages(async (pageToken) => {
        const q = [`mimeType = '${mimeType}'`, 'trashed = false', ...(search ? [`name contains '${driveQuoted(search)}'`] : [])].join(' and ');
        const data = obj(await client.request({
          url: `${client.io.baseUrl('googleDrive')}/files`,
          query: {
            q,
            pageSize: PAGE_LIMIT,
            pageToken,
            fields: 'nextPageToken,files(id,name,mimeType,modifiedTime)',
            orderBy: 'modifiedTime desc',
            supportsAllDrives: true,
            includeItemsFromAllDrives: true,
          },
        }));
        const items = list(data.files).map(obj).map(fileItem);
        return { items, next: str(data.nextPageToken) };
      }, position),
    /** One file by id (`files/{id}`): none when Drive has no such file, or it is trashed or of another type. */
    async get({ client }, id) {
      const found = await client.find({ url: `${client.io.baseUrl('googleDrive')}/files/${seg(id)}`, query: { fields: 'id,name,mimeType,modifiedTime,trashed', supportsAllDrives: true } });
      if (found === null) return null;
      const file = obj(found);
      return file.mimeType === mimeType && file.trashed !== true ? fileItem(file) : null;
    },
  };
}

/** A calendar of the account's list: its own name for it (`summaryOverride`) else the calendar's, the primary marked. */
function calendarItem(c: Obj): SelectorItem {
  return choice(c.id, String(c.summaryOverride ?? c.summary ?? c.id ?? ''), c.primary === true && 'Primary calendar');
}

/** Google Calendar calendars: `users/me/calendarList` by `pageToken`; a search filters by name here. */
export const googleCalendars: SelectorLister = {
  provider: 'Google Calendar',
  what: 'Google Calendar calendars',
  list: ({ client, search, position }) =>
    collectPages(
      async (pageToken) => {
        const data = obj(await client.request({ url: `${client.io.baseUrl('googleCalendar')}/users/me/calendarList`, query: { maxResults: PAGE_LIMIT, pageToken } }));
        return { items: list(data.items).map(obj).map(calendarItem), next: str(data.nextPageToken) };
      },
      position,
      { filter: search },
    ),
  /** One calendar of the account's list by id (`users/me/calendarList/{id}`; 404: not in the list). */
  async get({ client }, id) {
    const found = await client.find({ url: `${client.io.baseUrl('googleCalendar')}/users/me/calendarList/${seg(id)}` });
    return found === null ? null : calendarItem(obj(found));
  },
};
