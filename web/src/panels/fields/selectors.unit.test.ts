import { describe, expect, it } from 'vitest';
import { getBlock, type SubBlockConfig } from '@weft/catalog';
import { ApiError } from '../../api';
import { chosenItemId, chosenLabel, isListKey, isReference, listPlacement, listProblem, nextActive, pageItems, pickedValue, resourceNoun, selectorValues, withDependentsCleared } from './selectors';

const fieldsOf = (type: string): readonly SubBlockConfig[] => {
  const block = getBlock(type);
  if (!block) throw new Error(`no ${type} block`);
  return block.subBlocks;
};
const field = (type: string, id: string): SubBlockConfig => {
  const found = fieldsOf(type).find((f) => f.id === id);
  if (!found) throw new Error(`no ${type}.${id}`);
  return found;
};

const blockOf = (type: string) => ({ subBlocks: fieldsOf(type) });

describe('a changed choice empties the selectors depending on it (a tool card edit)', () => {
  it("another Teams team empties the chosen channel; another Jira project the chosen issue; a Linear team the project", () => {
    expect(withDependentsCleared(blockOf('microsoft_teams'), { teamId: 'T1', channelId: 'CH1', content: 'hi' }, 'teamId', 'T2')).toEqual({ teamId: 'T2', channelId: '', content: 'hi' });
    expect(withDependentsCleared(blockOf('microsoft_teams'), { teamId: 'T1', channelId: 'CH1' }, 'manualTeamId', 'T9')).toEqual({ teamId: 'T1', manualTeamId: 'T9', channelId: '' });
    expect(withDependentsCleared(blockOf('jira'), { projectId: '10000', issueKey: 'PROJ-2', manualIssueKey: 'PROJ-7' }, 'projectId', '10001')).toEqual({ projectId: '10001', issueKey: '', manualIssueKey: 'PROJ-7' });
    expect(withDependentsCleared(blockOf('linear'), { teamId: 'A', projectId: 'P' }, 'teamId', 'B')).toEqual({ teamId: 'B', projectId: '' });
  });

  it('the same choice again, a field nothing depends on, or an empty dependent changes nothing else', () => {
    expect(withDependentsCleared(blockOf('microsoft_teams'), { teamId: 'T1', channelId: 'CH1' }, 'teamId', 'T1')).toEqual({ teamId: 'T1', channelId: 'CH1' });
    expect(withDependentsCleared(blockOf('jira'), { projectId: '10000', issueKey: 'PROJ-2' }, 'summary', 'x')).toEqual({ projectId: '10000', issueKey: 'PROJ-2', summary: 'x' });
    expect(withDependentsCleared(blockOf('jira'), { projectId: '10000' }, 'projectId', '10001')).toEqual({ projectId: '10001' });
  });
});

describe('a stored value asked for by id', () => {
  it('is an id, not a reference a run fills in', () => {
    expect(isReference('CMANY129')).toBe(false);
    expect(isReference('PROJ-2')).toBe(false);
    expect(isReference('{{SLACK_CHANNEL}}')).toBe(true);
    expect(isReference('<start.input>')).toBe(true);
  });
});

describe('the values a selector sends (and lists again when they change)', () => {
  it("sends Slack's account, auth method and bot token, not the message nor its own channel", () => {
    const values = { operation: 'send', credential: 'cred_1', botToken: '{{SLACK_BOT_TOKEN}}', channel: 'C1', manualChannel: '', text: 'hello there' };
    expect(selectorValues(fieldsOf('slack'), values, 'channel')).toEqual({ operation: 'send', authMethod: 'oauth', credential: 'cred_1', botToken: '{{SLACK_BOT_TOKEN}}' });
  });

  it('counts a field not set yet with its default, and a set one as it is', () => {
    expect(selectorValues(fieldsOf('slack'), {}, 'channel').authMethod).toBe('oauth');
    expect(selectorValues(fieldsOf('slack'), { authMethod: 'bot_token' }, 'channel').authMethod).toBe('bot_token');
  });

  it("sends a Jira issue list its domain and project (picked or typed), so a new project lists that project's issues", () => {
    const fields = fieldsOf('jira');
    const before = selectorValues(fields, { domain: 'acme.atlassian.net', credential: 'cred_j', projectId: 'P1', summary: 'A bug' }, 'issueKey');
    expect(before).toMatchObject({ domain: 'acme.atlassian.net', credential: 'cred_j', projectId: 'P1' });
    expect(before).not.toHaveProperty('summary');
    const after = selectorValues(fields, { domain: 'acme.atlassian.net', credential: 'cred_j', projectId: 'P2' }, 'issueKey');
    expect(JSON.stringify(after)).not.toBe(JSON.stringify(before));
    expect(selectorValues(fields, { manualProjectId: 'P3' }, 'issueKey')).toMatchObject({ manualProjectId: 'P3' });
  });

  it("sends a Teams channel list its team; the team list does not send its own value", () => {
    expect(selectorValues(fieldsOf('microsoft_teams'), { credential: 'c', teamId: 'T1' }, 'channelId')).toMatchObject({ teamId: 'T1' });
    expect(selectorValues(fieldsOf('microsoft_teams'), { credential: 'c', teamId: 'T1' }, 'teamId')).not.toHaveProperty('teamId');
  });

  it('leaves out empty and non-text values', () => {
    expect(selectorValues(fieldsOf('slack'), { credential: '', botToken: 5 }, 'channel')).toEqual({ operation: 'send', authMethod: 'oauth' });
  });
});

describe('the items a selector shows', () => {
  it("joins the pages loaded so far, each id once, in the provider's order", () => {
    const pages = [
      { items: [{ id: 'C1', name: '#general' }, { id: 'C2', name: '#random' }], nextCursor: 'n1' },
      { items: [{ id: 'C2', name: '#random' }, { id: 'C3', name: '#eng', detail: 'Private channel' }] },
    ];
    expect(pageItems(pages).map((i) => i.id)).toEqual(['C1', 'C2', 'C3']);
    expect(pageItems(undefined)).toEqual([]);
  });

  it('shows the chosen id by its name, else the id itself (never blank)', () => {
    const items = [{ id: 'C1', name: '#general', detail: 'Public' }];
    expect(chosenLabel('C1', items)).toEqual({ name: '#general', known: true, detail: 'Public' });
    expect(chosenLabel('C9', items)).toEqual({ name: 'C9', known: false });
    expect(chosenLabel('C9', items, [{ id: 'C9', name: '#found-by-search' }])).toMatchObject({ name: '#found-by-search', known: true });
    expect(chosenLabel('C2', [{ id: 'C2', name: '' }]).name).toBe('C2');
  });

  it('marks in the open list the item of the stored id, or the item a choice stored as an alias names (a Jira key, a channel by name)', () => {
    const projects = [{ id: '10000', name: 'Platform', detail: 'PROJ' }, { id: '10001', name: 'Operations', detail: 'OPS' }];
    expect(chosenItemId('10001', projects)).toBe('10001');
    // The key `OPS` stored: the route's `selected` answers under it, with the item's own id as itemId.
    expect(chosenItemId('OPS', projects, { id: 'OPS', name: 'Operations', detail: 'OPS', itemId: '10001' })).toBe('10001');
    // Before (or without) that answer, the item whose second line is the key.
    expect(chosenItemId('OPS', projects)).toBe('10001');
    // Outlook's well-known folder name, resolved by the route to the folder named Sent Items.
    const folders = [{ id: 'AAMk1', name: 'Inbox' }, { id: 'AAMk2', name: 'Sent Items' }];
    expect(chosenItemId('SentItems', folders, { id: 'SentItems', name: 'Sent Items', itemId: 'AAMk2' })).toBe('AAMk2');
    // A Slack channel stored by its name, with or without its '#'.
    const channels = [{ id: 'C001', name: '#general' }, { id: 'C002', name: '#random', detail: 'Private channel' }];
    expect(chosenItemId('general', channels)).toBe('C001');
    expect(chosenItemId('#random', channels)).toBe('C002');
    // Nothing marked: no value, a reference, a value no item has, or one that names two items.
    expect(chosenItemId('', channels)).toBeUndefined();
    expect(chosenItemId('{{CHANNEL}}', channels)).toBeUndefined();
    expect(chosenItemId('CGONE0001', channels, null)).toBeUndefined();
    expect(chosenItemId('dev', [{ id: 'C1', name: '#dev' }, { id: 'C2', name: 'dev' }])).toBeUndefined();
    // A resolved item of another value (a stale answer) is not taken for this one.
    expect(chosenItemId('PROJ2', projects, { id: 'OPS', name: 'Operations', detail: 'OPS', itemId: '10001' })).toBeUndefined();
  });

  it('marks no item of the same name for a plain id on a page not loaded, so another item can be picked', () => {
    // Drive folders have no second line: the stored F2 "Invoices" is on page 2, another F1 "Invoices" on page 1.
    const page1 = [{ id: 'F1', name: 'Invoices' }, { id: 'F3', name: 'Receipts' }];
    const found = { id: 'F2', name: 'Invoices' };
    expect(chosenItemId('F2', page1, found)).toBeUndefined();
    // The same for the item picked before (kept by its own id), before the route answers.
    expect(chosenItemId('F2', page1, { id: 'F2', name: 'Invoices' })).toBeUndefined();
    // Picking F1 stores F1; with page 2 loaded, F2 itself is marked.
    expect(pickedValue('F1', 'F2', chosenItemId('F2', page1, found))).toBe('F1');
    expect(chosenItemId('F2', [...page1, { id: 'F2', name: 'Invoices' }], found)).toBe('F2');
    // A value the route found as an id is not matched by name, even to one item of that name.
    expect(chosenItemId('general', [{ id: 'C001', name: '#general' }], { id: 'general', name: 'general' })).toBeUndefined();
    // An alias's item that is not loaded marks nothing either.
    expect(chosenItemId('OPS', [{ id: '10000', name: 'Platform', detail: 'PROJ' }], { id: 'OPS', name: 'Operations', detail: 'OPS', itemId: '10001' })).toBeUndefined();
  });

  it('stores the picked item\'s id unless it is the stored choice or the item the stored alias names', () => {
    expect(pickedValue('C2', 'C1', 'C1')).toBe('C2');
    expect(pickedValue('C1', 'C1', 'C1')).toBeUndefined();
    expect(pickedValue('C1', '', undefined)).toBe('C1');
    // The Jira project stored as its key OPS: picking its item 10001 keeps OPS; another project is stored.
    expect(pickedValue('10001', 'OPS', '10001')).toBeUndefined();
    expect(pickedValue('10000', 'OPS', '10001')).toBe('10000');
  });

  it("shows a 400 (an input still missing) as a hint and any other failure as an error, both with the server's message", () => {
    expect(listProblem(new ApiError(400, 'Select an account in "Slack Account" first'))).toEqual({ kind: 'hint', message: 'Select an account in "Slack Account" first' });
    expect(listProblem(new ApiError(502, 'Slack answered 401: invalid_auth'))).toEqual({ kind: 'error', message: 'Slack answered 401: invalid_auth' });
    expect(listProblem(new ApiError(404, 'Credential cred_x not found'))?.kind).toBe('error');
    expect(listProblem(new TypeError('Failed to fetch'))).toEqual({ kind: 'error', message: 'Failed to fetch' });
    expect(listProblem(null)).toBeNull();
  });

  it('moves through the list with the arrows, wrapping at both ends', () => {
    expect(nextActive(-1, 3, 'ArrowDown')).toBe(0);
    expect(nextActive(2, 3, 'ArrowDown')).toBe(0);
    expect(nextActive(0, 3, 'ArrowUp')).toBe(2);
    expect(nextActive(-1, 3, 'ArrowUp')).toBe(2);
    expect(nextActive(1, 3, 'End')).toBe(2);
    expect(nextActive(1, 3, 'Home')).toBe(0);
    expect(nextActive(0, 0, 'ArrowDown')).toBe(-1);
    expect(['ArrowDown', 'End', 'Enter', 'a'].map(isListKey)).toEqual([true, true, false, false]);
  });

  it('names what it lists from the field', () => {
    expect(resourceNoun(field('slack', 'channel'))).toBe('channels');
    expect(resourceNoun(field('jira', 'issueKey'))).toBe('issues');
    expect(resourceNoun(field('google_drive', 'folderSelector'))).toBe('folders');
    expect(resourceNoun({ id: 'x', type: 'folder-selector', title: '' })).toBe('folders');
  });
});

describe('where the open list goes', () => {
  const panel = { top: 50, bottom: 800 };
  it('opens below with its full height when there is room', () => {
    expect(listPlacement({ top: 100, bottom: 132 }, panel)).toEqual({ up: false, maxHeight: 280 });
  });
  it('opens below, shorter, when a little room is left there and less above', () => {
    expect(listPlacement({ top: 100, bottom: 132 }, { top: 50, bottom: 350 })).toEqual({ up: false, maxHeight: 210 });
  });
  it('opens above a field near the bottom of the panel, cut to the room there', () => {
    expect(listPlacement({ top: 700, bottom: 732 }, panel)).toEqual({ up: true, maxHeight: 280 });
    expect(listPlacement({ top: 250, bottom: 282 }, { top: 50, bottom: 300 })).toEqual({ up: true, maxHeight: 192 });
  });
  it('never shrinks below a few rows', () => {
    expect(listPlacement({ top: 60, bottom: 92 }, { top: 50, bottom: 120 }).maxHeight).toBe(120);
  });
});
