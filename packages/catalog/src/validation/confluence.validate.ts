import { firstText } from '../paramValues.js';

/** Confluence: a page id from the selector or typed by hand (trimmed). */
export function validateConfluence(params: Record<string, unknown>): string | undefined {
  if (firstText(params.pageId, params.manualPageId) === '') {
    return 'Page ID is required. Please select a page or enter a page ID manually.';
  }
  return undefined;
}
