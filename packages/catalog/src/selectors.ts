/**
 * The resource selectors' list route, `POST /api/tools/selectors/list` (spec 001 §2: selectors for files,
 * folders, projects and channels): what the block form asks and what the integrations service answers.
 */
import type { BlockConfig } from './types.js';

/** One choice of a selector: the id the field stores, the name users read, an optional second line. */
export interface SelectorItem {
  id: string;
  name: string;
  detail?: string;
  /**
   * On `selected` only: the item's own id, when the stored choice is an alias the provider took for
   * it (a Jira project's key `OPS` for the project `10001`, Outlook's `SentItems`), so the open list
   * marks that item. Absent when the stored choice is the item's own id.
   */
  itemId?: string;
}

/**
 * One answer: at most 100 items, and a cursor when there are more. Asked with `selectedId`, it also
 * carries that choice's item (`null` when the provider does not have it), wherever in the list it is,
 * under the stored id (with `itemId` when that is an alias).
 */
export interface SelectorPage {
  items: SelectorItem[];
  nextCursor?: string;
  selected?: SelectorItem | null;
}

/** What a selector asks for: the block and field being edited, the block's values the list depends on, a search, a page. */
export interface SelectorRequest {
  workflowId: string;
  blockType: string;
  fieldId: string;
  values: Record<string, string>;
  search?: string;
  cursor?: string;
  /** The field's stored choice, whose name the answer's `selected` gives (a choice past the first page). */
  selectedId?: string;
}

/**
 * The fields a user's change of `fieldId` empties: the block's selectors whose list is of that
 * field's choice (`dependsOn`), as a Jira issue is of its project.
 */
export function dependentFields(block: Pick<BlockConfig, 'subBlocks'>, fieldId: string): string[] {
  return block.subBlocks.filter((s) => s.id !== fieldId && s.dependsOn?.includes(fieldId) === true).map((s) => s.id);
}

/**
 * References a selector's values may hold, written as the runner reads them (services/runner
 * workflows/references.ts): an environment variable `{{KEY}}` and a block's output `<block.path>`.
 * The list route fills in the first from the caller's environment and refuses the second; a stored
 * choice holding either is no item id.
 */
const ENV_REFERENCE_SOURCE = String.raw`\{\{([A-Za-z0-9_\-.]+)\}\}`;
const BLOCK_REFERENCE = /<[^<>\s.]+(?:\.[^<>\s.]+)*>/;

/** Whether a value holds a reference filled in a run (`{{KEY}}`, `<block.output>`), so is not an item's id. */
export function isReference(value: string): boolean {
  return new RegExp(ENV_REFERENCE_SOURCE).test(value) || BLOCK_REFERENCE.test(value);
}

/** The value with each `{{KEY}}` replaced by what `replace` answers for its key. */
export function replaceEnvReferences(value: string, replace: (key: string) => string): string {
  return value.replace(new RegExp(ENV_REFERENCE_SOURCE, 'g'), (_, key: string) => replace(key));
}

/** The first block output reference (`<block.path>`) in a value, as written; undefined when it has none. */
export function blockReferenceIn(value: string): string | undefined {
  return BLOCK_REFERENCE.exec(value)?.[0];
}
