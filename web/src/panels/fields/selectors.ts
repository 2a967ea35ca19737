import { dependentFields, isReference, type BlockConfig, type SubBlockConfig, type SubBlockType } from '@weft/catalog';
import { ApiError, type SelectorItem, type SelectorPage } from '../../api';

/** The sub-block types drawn as a resource selector fed by POST /api/tools/selectors/list (spec 001 §2). */
export const RESOURCE_SELECTOR_TYPES: readonly SubBlockType[] = ['file-selector', 'folder-selector', 'project-selector', 'channel-selector'];

/** Short inputs a selector's list may depend on besides the account: a Jira/Confluence domain, a Slack bot token. */
const TEXT_INPUTS = new Set(['domain', 'botToken']);

/**
 * Whether a field's value can change what a selector lists: accounts, dropdowns (Slack's auth
 * method), other selectors and their typed-id twins (a Jira project, a Teams team), the domain and
 * the bot token. Free text (messages, titles) is left out, so typing one does not list again.
 */
function listsDependOn(field: SubBlockConfig): boolean {
  if (field.type === 'oauth-input' || field.type === 'dropdown' || RESOURCE_SELECTOR_TYPES.includes(field.type)) return true;
  return field.type === 'short-input' && (TEXT_INPUTS.has(field.id) || field.id.startsWith('manual'));
}

/**
 * The block's values a selector sends with its request (strings only, as the route reads them; a
 * field not set yet counts with its default, as its form shows it): those its list may depend on,
 * without its own. They are also its query's key, so the list is
 * asked again when one of them changes (an account chosen, a project picked before its issues).
 */
export function selectorValues(fields: readonly SubBlockConfig[], values: Readonly<Record<string, unknown>>, fieldId: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of fields) {
    const value = values[field.id] ?? field.defaultValue;
    if (field.id === fieldId || typeof value !== 'string' || value === '' || !listsDependOn(field)) continue;
    out[field.id] = value;
  }
  return out;
}

/**
 * Form values after a user's edit of one field, for a form kept as one value (an agent's tool card):
 * the selectors whose list is of that field's choice (`dependsOn`: a Teams channel of the team)
 * emptied when the choice changed, in the same edit.
 */
export function withDependentsCleared(block: Pick<BlockConfig, 'subBlocks'>, values: Readonly<Record<string, unknown>>, fieldId: string, value: unknown): Record<string, unknown> {
  const next: Record<string, unknown> = { ...values, [fieldId]: value };
  if (JSON.stringify(values[fieldId] ?? null) === JSON.stringify(value ?? null)) return next;
  for (const dependent of dependentFields(block, fieldId)) {
    const held = values[dependent];
    if (held !== undefined && held !== null && held !== '') next[dependent] = '';
  }
  return next;
}

/** The items of every page loaded so far, each id once (a later page repeating one keeps the first). */
export function pageItems(pages: readonly SelectorPage[] | undefined): SelectorItem[] {
  const seen = new Set<string>();
  const items: SelectorItem[] = [];
  for (const page of pages ?? []) {
    for (const item of page.items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      items.push(item);
    }
  }
  return items;
}

/** Whether a stored value is a reference filled in a run (`{{KEY}}`, `<block.output>`), not an item's id: the catalogue's test, as the server's. */
export { isReference };

/** What the closed selector shows for its value: the item's name when a list has it, else the stored id itself. */
export function chosenLabel(value: string, ...lists: ReadonlyArray<readonly SelectorItem[]>): { name: string; known: boolean; detail?: string } {
  for (const list of lists) {
    const item = list.find((i) => i.id === value);
    if (item) return { name: item.name || item.id, known: true, ...(item.detail ? { detail: item.detail } : {}) };
  }
  return { name: value, known: false };
}

/** A channel's name with or without its `#`: Slack's list names `#general`, a choice may be stored as `general`. */
const bare = (name: string) => name.replace(/^#/, '');

/**
 * The id of the listed item that is the stored choice, for the open list to mark: the item of that
 * id; else, when the route found the stored value (`resolved`: its `selected`, or the item picked
 * before), the item it named — under `itemId` for a choice stored as an alias (a Jira project by its
 * key `OPS` while the list's item has the id `10001`, Outlook's `SentItems`), else the value itself, an
 * item on a page not loaded yet, so none of those loaded is marked (another folder of the same name
 * is not that one); else (no answer yet, or the provider has no item of that id) the one item whose
 * second line (a key) or name is the value itself (a Slack channel stored by its name).
 */
export function chosenItemId(value: string, items: readonly SelectorItem[], resolved?: SelectorItem | null): string | undefined {
  if (value === '' || isReference(value)) return undefined;
  if (items.some((i) => i.id === value)) return value;
  if (resolved && resolved.id === value) {
    const own = resolved.itemId ?? value;
    return items.some((i) => i.id === own) ? own : undefined;
  }
  const named = items.filter((i) => i.detail === value || (i.name !== '' && bare(i.name) === bare(value)));
  return named.length === 1 ? named[0]?.id : undefined;
}

/**
 * What picking an item stores: its id; nothing (undefined: no edit) when it is the stored choice, or
 * the item a choice stored as an alias names (`chosenId`, the marked item, differing from the stored
 * value), so the alias stays as stored.
 */
export function pickedValue(itemId: string, stored: string, chosenId: string | undefined): string | undefined {
  if (itemId === stored) return undefined;
  if (chosenId !== undefined && chosenId !== stored && itemId === chosenId) return undefined;
  return itemId;
}

/**
 * How a failed list is shown: a 400 names an input still missing ('Select an account in "Slack
 * Account" first', 'domain is required to list Jira projects'), so it is a hint on what to fill
 * first; any other failure (a refused account, the provider answering 401 or 5xx) is an error.
 * Both show the server's message, never a toast.
 */
export function listProblem(error: unknown): { kind: 'hint' | 'error'; message: string } | null {
  if (!error) return null;
  if (error instanceof ApiError) return { kind: error.status === 400 ? 'hint' : 'error', message: error.message };
  return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
}

/** The keys that move through an open list. */
export type ListKey = 'ArrowDown' | 'ArrowUp' | 'Home' | 'End';

export const isListKey = (key: string): key is ListKey => key === 'ArrowDown' || key === 'ArrowUp' || key === 'Home' || key === 'End';

/** The option the arrow keys move to: down and up wrap around; none active (-1) starts at the first or last. */
export function nextActive(active: number, count: number, key: ListKey): number {
  if (count === 0) return -1;
  switch (key) {
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    case 'ArrowDown':
      return active < 0 ? 0 : (active + 1) % count;
    case 'ArrowUp':
      return active < 0 ? count - 1 : (active - 1 + count) % count;
    default: {
      const unreachable: never = key;
      return unreachable;
    }
  }
}

/** What the list is of, for its placeholder and empty message ('channels', 'folders', …). */
export function resourceNoun(field: Pick<SubBlockConfig, 'type' | 'title' | 'id'>): string {
  const title = (field.title ?? field.id).replace(/^Select\s+(a\s+)?/i, '').trim().toLowerCase();
  if (title) return title.endsWith('s') ? title : `${title}s`;
  return field.type.replace(/-selector$/, 's');
}

/** Tallest the open list grows, and the least it shrinks to before it opens on the other side. */
export const LIST_MAX_HEIGHT = 280;
const LIST_MIN_HEIGHT = 120;
const LIST_GAP = 8;

/**
 * Where the open list goes: below the field when it fits there (or fits better than above), else
 * above; its height cut to the room on that side of what clips it (the panel's scroll box within
 * the window), so its last row — "Load more" — can be seen without scrolling the panel.
 */
export function listPlacement(field: { top: number; bottom: number }, bounds: { top: number; bottom: number }): { up: boolean; maxHeight: number } {
  const below = bounds.bottom - field.bottom - LIST_GAP;
  const above = field.top - bounds.top - LIST_GAP;
  const up = below < Math.min(LIST_MAX_HEIGHT, 200) && above > below;
  return { up, maxHeight: Math.round(Math.max(LIST_MIN_HEIGHT, Math.min(LIST_MAX_HEIGHT, up ? above : below))) };
}
