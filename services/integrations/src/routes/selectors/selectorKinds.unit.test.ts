import { describe, expect, it } from 'vitest';
import { listBlocks } from '@weft/catalog';
import { resolveSelector, SELECTOR_FIELD_TYPES } from './selectorKinds.js';

/** Every selector field of the catalogue and the list it gets (the contract's "every selector field"). */
const EXPECTED: Record<string, string> = {
  'confluence.pageId': 'confluence-pages',
  'gmail.folder': 'gmail-labels',
  'google_calendar.calendarId': 'google-calendars',
  'google_docs.documentId': 'drive-documents',
  'google_docs.folderSelector': 'drive-folders',
  'google_drive.folderSelector': 'drive-folders',
  'google_sheets.spreadsheetId': 'drive-spreadsheets',
  'jira.issueKey': 'jira-issues',
  'jira.projectId': 'jira-projects',
  'linear.projectId': 'linear-projects',
  'linear.teamId': 'linear-teams',
  'microsoft_excel.spreadsheetId': 'excel-workbooks',
  'microsoft_teams.channelId': 'teams-channels',
  'microsoft_teams.chatId': 'teams-chats',
  'microsoft_teams.teamId': 'teams-teams',
  'outlook.folder': 'outlook-folders',
  'slack.channel': 'slack-channels',
  'wealthbox.contactId': 'wealthbox-contacts',
  'wealthbox.taskId': 'wealthbox-tasks',
};

describe('the catalogue’s selector fields', () => {
  it('each has its list, decided from the catalogue (provider, service, type)', () => {
    const found: Record<string, string> = {};
    for (const block of listBlocks()) {
      for (const field of block.subBlocks) {
        if (SELECTOR_FIELD_TYPES.has(field.type)) found[`${block.type}.${field.id}`] = resolveSelector(block.type, field.id).kind;
      }
    }
    expect(found).toEqual(EXPECTED);
  });

  it('refuses an unknown block, a field that is no selector, and the selectors that have their own routes, naming them', () => {
    expect(() => resolveSelector('nope', 'channel')).toThrow('blockType "nope" is not a block');
    expect(() => resolveSelector('slack', 'operation')).toThrow('fieldId "operation" is not a selector field of Slack');
    // The advanced-mode twin is a text field, not a selector.
    expect(() => resolveSelector('slack', 'manualChannel')).toThrow('fieldId "manualChannel" is not a selector field of Slack');
    expect(() => resolveSelector('knowledge', 'knowledgeBaseId')).toThrow('fieldId "knowledgeBaseId" is not a selector field of Knowledge');
  });

  it('names what each list needs beyond the account', () => {
    expect(resolveSelector('jira', 'issueKey').lister.needs).toEqual({ domain: ['domain'], projectId: ['projectId', 'manualProjectId'] });
    expect(resolveSelector('microsoft_teams', 'channelId').lister.needs).toEqual({ teamId: ['teamId', 'manualTeamId'] });
    expect(resolveSelector('linear', 'projectId').lister.needs).toEqual({ teamId: ['teamId', 'manualTeamId'] });
    expect(resolveSelector('google_sheets', 'spreadsheetId').lister.needs).toBeUndefined();
  });

  it('declares in the catalogue (dependsOn) every other selector choice a list is of, so the form empties a stale one', () => {
    const declared: Record<string, readonly string[]> = {};
    const needed: Record<string, readonly string[]> = {};
    for (const block of listBlocks()) {
      for (const field of block.subBlocks) {
        if (!SELECTOR_FIELD_TYPES.has(field.type)) continue;
        const key = `${block.type}.${field.id}`;
        if (field.dependsOn) declared[key] = field.dependsOn;
        // The account and the site (domain) are not choices of another selector.
        const choices = Object.entries(resolveSelector(block.type, field.id).lister.needs ?? {}).filter(([name]) => name !== 'domain').flatMap(([, fields]) => fields);
        if (choices.length > 0) needed[key] = choices;
      }
    }
    expect(declared).toEqual(needed);
    expect(Object.keys(declared).sort()).toEqual(['jira.issueKey', 'linear.projectId', 'microsoft_teams.channelId']);
  });
});
