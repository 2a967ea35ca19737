import { list, obj, str, type Obj } from '../../../tools/services/http.js';
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

/** A contact's name as Wealthbox shows it: its name, else first and last name, else its company. */
function contactName(c: Obj): string {
  const full = [str(c.first_name), str(c.last_name)].filter(Boolean).join(' ');
  return str(c.name) || full || str(c.company_name) || String(c.id ?? '');
}

/** Wealthbox contacts (`contacts`, searched by its `name` filter), by page. */
export const wealthboxContacts: SelectorLister = {
  provider: 'Wealthbox',
  what: 'Wealthbox contacts',
  list: ({ client, search, position }) =>
    collectPages(
      (page) =>
        wealthboxPage(client, 'contacts', page, { name: search }, (c) => {
          const email = str(obj(list(c.email_addresses).map(obj).find((e) => e.principal === true) ?? list(c.email_addresses)[0]).address);
          return choice(c.id, contactName(c), email);
        }),
      position,
    ),
};

/** Wealthbox tasks (`tasks`), by page; a search filters by name here. */
export const wealthboxTasks: SelectorLister = {
  provider: 'Wealthbox',
  what: 'Wealthbox tasks',
  list: ({ client, search, position }) =>
    collectPages(
      (page) =>
        wealthboxPage(client, 'tasks', page, {}, (t) => {
          const due = str(t.due_date);
          return choice(t.id, str(t.name) || String(t.id ?? ''), due && `Due ${due}`);
        }),
      position,
      { filter: search },
    ),
};
