import { AppError } from '@weft/platform';
import { getBlock, type BlockConfig, type SubBlockConfig } from '@weft/catalog';
import type { SelectorLister } from './lister.js';
import { slackChannels } from './listers/slack.js';
import { DRIVE_MIME, driveFiles, gmailLabels, googleCalendars } from './listers/google.js';
import { excelWorkbooks, outlookFolders, teamsChannels, teamsChats, teamsTeams } from './listers/microsoft.js';
import { confluencePages, jiraIssues, jiraProjects } from './listers/atlassian.js';
import { linearProjects, linearTeams } from './listers/linear.js';
import { wealthboxContacts, wealthboxTasks } from './listers/wealthbox.js';

/** The catalogue field types this route lists (knowledge bases, documents and workflows have their own routes). */
export const SELECTOR_FIELD_TYPES: ReadonlySet<string> = new Set(['file-selector', 'folder-selector', 'project-selector', 'channel-selector']);

/** Every kind of list a catalogue selector field asks for. */
export type SelectorKind =
  | 'slack-channels'
  | 'gmail-labels'
  | 'outlook-folders'
  | 'drive-folders'
  | 'drive-spreadsheets'
  | 'drive-documents'
  | 'google-calendars'
  | 'jira-projects'
  | 'jira-issues'
  | 'confluence-pages'
  | 'linear-teams'
  | 'linear-projects'
  | 'excel-workbooks'
  | 'teams-teams'
  | 'teams-chats'
  | 'teams-channels'
  | 'wealthbox-contacts'
  | 'wealthbox-tasks';

/** How each kind is listed. */
export const LISTERS: Record<SelectorKind, SelectorLister> = {
  'slack-channels': slackChannels,
  'gmail-labels': gmailLabels,
  'outlook-folders': outlookFolders,
  'drive-folders': driveFiles(DRIVE_MIME.folder, 'Google Drive folders'),
  'drive-spreadsheets': driveFiles(DRIVE_MIME.spreadsheet, 'Google Sheets spreadsheets'),
  'drive-documents': driveFiles(DRIVE_MIME.document, 'Google Docs documents'),
  'google-calendars': googleCalendars,
  'jira-projects': jiraProjects,
  'jira-issues': jiraIssues,
  'confluence-pages': confluencePages,
  'linear-teams': linearTeams,
  'linear-projects': linearProjects,
  'excel-workbooks': excelWorkbooks,
  'teams-teams': teamsTeams,
  'teams-chats': teamsChats,
  'teams-channels': teamsChannels,
  'wealthbox-contacts': wealthboxContacts,
  'wealthbox-tasks': wealthboxTasks,
};

/** Google Drive file selectors by block: Sheets picks spreadsheets, Docs documents. */
const DRIVE_FILES_OF_BLOCK: Readonly<Record<string, SelectorKind>> = { google_sheets: 'drive-spreadsheets', google_docs: 'drive-documents' };

/**
 * The kind of list a catalogue selector field asks for, from its provider, service, type and (where
 * one provider has several lists of one type: Teams) its id; undefined for a field no kind covers.
 */
export function kindOf(block: BlockConfig, field: SubBlockConfig): SelectorKind | undefined {
  switch (field.provider) {
    case 'slack':
      return 'slack-channels';
    case 'google-email':
      return 'gmail-labels';
    case 'outlook':
      return 'outlook-folders';
    case 'google-drive':
      return field.type === 'folder-selector' ? 'drive-folders' : DRIVE_FILES_OF_BLOCK[block.type];
    case 'google-calendar':
      return 'google-calendars';
    case 'jira':
      return field.type === 'project-selector' ? 'jira-projects' : 'jira-issues';
    case 'confluence':
      return 'confluence-pages';
    case 'linear':
      return field.serviceId === 'linear-projects' ? 'linear-projects' : field.serviceId === 'linear-teams' ? 'linear-teams' : undefined;
    case 'microsoft-excel':
      return 'excel-workbooks';
    case 'microsoft-teams':
      if (field.type === 'channel-selector') return 'teams-channels';
      return field.id === 'chatId' ? 'teams-chats' : field.id === 'teamId' ? 'teams-teams' : undefined;
    case 'wealthbox':
      return field.serviceId === 'wealthbox-tasks' ? 'wealthbox-tasks' : field.serviceId === 'wealthbox-contacts' ? 'wealthbox-contacts' : undefined;
    default:
      return undefined;
  }
}

/** A selector field found in the catalogue, with how it is listed. */
export interface ResolvedSelector {
  block: BlockConfig;
  field: SubBlockConfig;
  kind: SelectorKind;
  lister: SelectorLister;
}

/** The catalogue's selector field `fieldId` of block `blockType`; anything else is a 400 naming the field. */
export function resolveSelector(blockType: string, fieldId: string): ResolvedSelector {
  const block = getBlock(blockType);
  if (!block) throw new AppError('validation', `blockType "${blockType}" is not a block`);
  const field = block.subBlocks.find((s) => s.id === fieldId && SELECTOR_FIELD_TYPES.has(s.type));
  if (!field) throw new AppError('validation', `fieldId "${fieldId}" is not a selector field of ${block.name}`);
  const kind = kindOf(block, field);
  if (!kind) throw new AppError('validation', `fieldId "${fieldId}" of ${block.name} has no list of choices; enter its id instead`);
  return { block, field, kind, lister: LISTERS[kind] };
}
