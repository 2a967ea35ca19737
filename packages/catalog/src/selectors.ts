/**
 * The resource selectors' list route, `POST /api/tools/selectors/list` (spec 001 §2: selectors for files,
 * folders, projects and channels): what the block form asks and what the integrations service answers.
 */

/** One choice of a selector: the id the field stores, the name users read, an optional second line. */
export interface SelectorItem {
  id: string;
  name: string;
  detail?: string;
}

/** One answer: at most 100 items, and a cursor when there are more. */
export interface SelectorPage {
  items: SelectorItem[];
  nextCursor?: string;
}

/** What a selector asks for: the block and field being edited, the block's values the list depends on, a search, a page. */
export interface SelectorRequest {
  workflowId: string;
  blockType: string;
  fieldId: string;
  values: Record<string, string>;
  search?: string;
  cursor?: string;
}
