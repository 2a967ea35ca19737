import { describe, expect, it } from 'vitest';
import { gmailFolderQuery } from './gmail.tools.js';

/** Folder name → the search filter Gmail needs for it. */
const FORMS: Array<[string, string]> = [
  ['Team Updates', 'label:"Team Updates"'],
  ['Say "hi" now', 'label:Say--hi--now'],
  ['Q3 (draft)', 'label:Q3--draft-'],
  ['Clients/Acme & Co', 'label:Clients-Acme---Co'],
  ['{a}|b', 'label:-a--b'],
  ['Work-Items', 'label:Work-Items'],
];

describe('gmailFolderQuery', () => {
  it('quotes a label with only spaces; one with quotes, parentheses, slashes, & or braces takes Gmail search form, one hyphen a character', () => {
    expect(Object.fromEntries(FORMS.map(([name]) => [name, gmailFolderQuery(name)]))).toEqual(Object.fromEntries(FORMS));
  });
});
