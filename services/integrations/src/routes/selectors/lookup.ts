import { isReference } from '@weft/catalog';
import type { ListContext, SelectorLister } from './lister.js';
import { decodeCursor, type SelectorItem, type SelectorPage } from './paging.js';

/** Most answers (of 100 items) read on to find a stored choice a lister cannot get by id: 1,000 items. */
export const MAX_LOOKUP_ANSWERS = 10;

/** The answer the request itself got: its items, and whether it is the list's unsearched first answer. */
export interface Answered {
  page: SelectorPage;
  fromStart: boolean;
}

/**
 * The item of a stored choice (`selectedId`), so the field can show its name wherever in the list
 * it is: the answer's own item; else the provider's get-by-id call; else the list read on from its
 * start (or from where the unsearched first answer stopped) for at most MAX_LOOKUP_ANSWERS answers.
 * `null`: the provider has no such item, or it is not within those answers.
 */
export async function findSelected(lister: SelectorLister, ctx: Pick<ListContext, 'client' | 'inputs'>, selectedId: string, answered: Answered): Promise<SelectorItem | null> {
  const id = selectedId.trim();
  if (id === '' || isReference(id)) return null;
  const own = answered.page.items.find((i) => i.id === id);
  if (own) return own;
  if (lister.get) return asStored(await lister.get(ctx, id), selectedId);
  let cursor: string | undefined;
  let read = 0;
  if (answered.fromStart) {
    if (!answered.page.nextCursor) return null;
    cursor = answered.page.nextCursor;
    read = 1;
  }
  for (; read < MAX_LOOKUP_ANSWERS; read += 1) {
    const page = await lister.list({ ...ctx, search: undefined, position: decodeCursor(cursor) });
    const found = page.items.find((i) => i.id === id);
    if (found) return found;
    if (!page.nextCursor) return null;
    cursor = page.nextCursor;
  }
  return null;
}

/**
 * The item a get-by-id call found, under the id as it is stored. A provider may take an alias for an
 * item — a Jira project's key `OPS` for its id `10001`, Outlook's well-known folder name `SentItems`
 * — and answer the item with its own id; the web matches `selected` to the stored value by id, so it
 * would not match and would show the raw text. The stored value is not rewritten to the provider's
 * id: the alias is what the user chose (or typed, or imported), the provider takes it when a run uses
 * it, and changing it would be an edit nobody made (in the history, on every collaborator's canvas).
 * The provider's id goes along as `itemId`, so the open list marks that very item — not another of
 * the same name (two Drive folders named Invoices) — and picking it keeps the alias.
 */
function asStored(item: SelectorItem | null, storedId: string): SelectorItem | null {
  return item === null || item.id === storedId ? item : { ...item, id: storedId, itemId: item.id };
}
