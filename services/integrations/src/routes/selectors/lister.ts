import type { ProviderClient } from './provider.js';
import type { Position, SelectorItem, SelectorPage } from './paging.js';

/** What one listing works with: the provider's client, the search text, where to start, and its inputs. */
export interface ListContext {
  client: ProviderClient;
  /** Trimmed search text; undefined when none was given. */
  search: string | undefined;
  position: Position;
  /** The inputs the lister `needs`, by name, each given (the route checked them). */
  inputs: Record<string, string>;
}

/** How one kind of selector is listed. */
export interface SelectorLister {
  /** The provider as users know it (`<Provider> answered 403: …`). */
  provider: string;
  /** What is listed, for messages (`domain is required to list Jira projects`). */
  what: string;
  /** Inputs beyond the account: name → the block's field values that may give it (the first given wins). */
  needs?: Readonly<Record<string, readonly string[]>>;
  list(ctx: ListContext): Promise<SelectorPage>;
  /**
   * One item by its id, where the provider has a call for it (`null`: it has no such item). Without
   * one, the route finds a stored choice by reading the list on (a bounded number of answers).
   */
  get?(ctx: Omit<ListContext, 'search' | 'position'>, id: string): Promise<SelectorItem | null>;
}
