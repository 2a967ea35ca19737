import { list, obj, seg, str, type Obj } from '../../../tools/services/http.js';
import { choice, collectPages, PAGE_LIMIT, type SelectorItem, wholeNumber } from '../paging.js';
import type { SelectorLister } from '../lister.js';
import type { ProviderClient } from '../provider.js';

/** One page of a Wealthbox list (`page`, `per_page`), with the next page number from its `meta`. */
async function wealthboxPage(client: ProviderClient, plural: 'contacts' | 'tasks', page: string | undefined, query: Obj, toItem: (item: Obj) => SelectorItem) {
  const current = wholeNumber(page, 1);
  const data = obj(await client.request({ url: `${client.io.baseUrl('wealthbox')}/${plural}`, query: { ...query, page: current, per_page: PAGE_LIMIT } }));
  const meta = obj(data.meta);
  const pages = typeof meta.total_pages === 'number' ? meta.total_pages : current;
  return { items: list(data[plural]).map(obj).map(toItem), next: current < pages ? String(current + 1) : undefined };
}

/**
 * One Wealthbox record by id (`contacts/{id}`, `tasks/{id}`; 404: none). Wealthbox ids are numbers:
 * any other id is none, nothing asked.
 */
async function wealthboxOne(client: ProviderClient, plural: 'contacts' | 'tasks', id: string): Promise<Obj | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  const found = await client.find({ url: `${client.io.baseUrl('wealthbox')}/${plural}/${seg(id)}` });
  return found === null ? null : obj(found);
}

/** A contact's name as Wealthbox shows it: its name, else first and last name, else its company. */
function contactName(c: Obj): string {
  const full = [str(c.first_name), str(c.last_name)].filter(Boolean).join(' ');
  return str(c.name) || full || str(c.company_name) || String(c.id ?? '');
}

/** A contact as the selector shows it: its name, its principal (else first) email address as the second line. */
function contactItem(c: Obj): SelectorItem {
  const email = str(obj(list(c.email_addresses).map(obj).find((e) => e.principal === true) ?? list(c.email_addresses)[0]).address);
  return choice(c.id, contactName(c), email);
}

/** A task as the selector shows it: its name, its due date as the second line. */
function taskItem(t: Obj): SelectorItem {
  const due = str(t.due_date);
  return choice(t.id, str(t.name) || String(t.id ?? ''), due && `Due ${due}`);
}

/** Wealthbox contacts (`contacts`, searched by its `name` filter), by page. */
export const wealthboxContacts: SelectorLister = {
  provider: 'Wealthbox',
  what: 'Wealthbox contacts',
  list: ({ client, search, position }) => collectPages((page) => wealthboxPage(client, 'contacts', page, { name: search }, contactItem), position),
  async get({ client }, id) {
    const contact = await wealthboxOne(client, 'contacts', id);
    return contact && contactItem(contact);
  },
};

/** Wealthbox tasks (`tasks`), by page; a search filters by name here. */
export const wealthboxTasks: SelectorLister = {
  provider: 'Wealthbox',
  what: 'Wealthbox tasks',
  list: ({ client, search, position }) => collectPages((page) => wealthboxPage(client, 'tasks', page, {}, taskItem), position, { filter: search }),
  async get({ client }, id) {
    const task = await wealthboxOne(client, 'tasks', id);
    return task && taskItem(task);
  },
};
