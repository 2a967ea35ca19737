import type { SelectorItem, SelectorPage } from '@weft/catalog';
import { AppError } from '@weft/platform';

export type { SelectorItem, SelectorPage } from '@weft/catalog';

/** Most items one answer carries (the selectors contract). */
export const PAGE_LIMIT = 100;
/** Most provider pages one answer reads when the list is filtered here (by name or by type). */
export const MAX_SCANNED_PAGES = 5;

/** A choice from a provider's id, the name users read and an optional second line (none when empty). */
export function choice(id: unknown, name: string, detail?: string | false): SelectorItem {
  return { id: String(id ?? ''), name, ...(detail ? { detail } : {}) };
}

/** One page as a provider answered it: its items and the provider's own token of the next page. */
export interface ProviderPage {
  items: SelectorItem[];
  next?: string | undefined;
}

/**
 * Where the next answer starts: the provider's token of the page to read (none: the first) and how
 * many of that page's (filtered) items the previous answer already gave.
 */
export interface Position {
  page?: string;
  skip: number;
}

const BAD_CURSOR = 'cursor is not a nextCursor this list answered';

/** Our cursor: the position as base64url JSON, so a page cut at 100 items goes on where it stopped. */
export function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify({ ...(position.page !== undefined ? { p: position.page } : {}), s: position.skip }), 'utf8').toString('base64url');
}

/** The position a cursor names (none: the start); anything else is a 400 naming the field. */
export function decodeCursor(cursor: string | undefined): Position {
  if (cursor === undefined || cursor === '') return { skip: 0 };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new AppError('validation', BAD_CURSOR);
  }
  if (typeof parsed !== 'object' || parsed === null) throw new AppError('validation', BAD_CURSOR);
  const { p, s } = parsed as { p?: unknown; s?: unknown };
  if ((p !== undefined && typeof p !== 'string') || typeof s !== 'number' || !Number.isSafeInteger(s) || s < 0) throw new AppError('validation', BAD_CURSOR);
  return p === undefined ? { skip: s } : { page: p, skip: s };
}

/** A provider's page token that must be a whole number (an offset, a page number); else the cursor is refused. */
export function wholeNumber(page: string | undefined, first: number): number {
  if (page === undefined) return first;
  if (!/^\d{1,9}$/.test(page)) throw new AppError('validation', BAD_CURSOR);
  return Number(page);
}

/** Whether an item's name holds the search text (case-insensitive), for providers that cannot search. */
export function nameMatches(item: SelectorItem, search: string): boolean {
  return item.name.toLowerCase().includes(search.toLowerCase());
}

export interface CollectOptions {
  /** Keep only items whose name holds this text (the provider could not search). */
  filter?: string | undefined;
  /** Read on past a short page: the provider's pages are filtered here (by type), so one may hold few items. */
  scan?: boolean;
}

/**
 * Reads provider pages from `position` into one answer of at most PAGE_LIMIT items. A list filtered
 * here reads up to MAX_SCANNED_PAGES pages to fill the answer; a page cut short is resumed by the
 * next cursor where it stopped, so no item is skipped or repeated.
 */
export async function collectPages(read: (page: string | undefined) => Promise<ProviderPage>, position: Position, options: CollectOptions = {}): Promise<SelectorPage> {
  const filter = options.filter;
  const maxPages = filter || options.scan ? MAX_SCANNED_PAGES : 1;
  const items: SelectorItem[] = [];
  let page = position.page;
  let skip = position.skip;
  for (let n = 0; n < maxPages; n += 1) {
    const answered = await read(page);
    const matching = (filter ? answered.items.filter((i) => nameMatches(i, filter)) : answered.items).slice(skip);
    const room = PAGE_LIMIT - items.length;
    if (matching.length > room) {
      items.push(...matching.slice(0, room));
      return { items, nextCursor: encodeCursor({ ...(page !== undefined ? { page } : {}), skip: skip + room }) };
    }
    items.push(...matching);
    skip = 0;
    if (answered.next === undefined || answered.next === '') return { items };
    page = answered.next;
    if (items.length >= PAGE_LIMIT) break;
  }
  return { items, nextCursor: encodeCursor({ ...(page !== undefined ? { page } : {}), skip: 0 }) };
}
