import { MICROSOFT_FIXTURES, createFakeMicrosoft } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { microsoftTools } from './microsoft.tools.js';

const ms = useFamily(createFakeMicrosoft, ['microsoftGraph'], microsoftTools);
const tok = { accessToken: 'eyJ.ms' };
const auth = { authorization: 'Bearer eyJ.ms' };
const json = { ...auth, 'content-type': 'application/json' };
const range = (item: string, sheet: string, address: string) => `/me/drive/items/${item}/workbook/worksheets('${sheet}')/range(address='${address}')`;
const sent = { to: 'ada@weft.example, bob@weft.example', subject: 'Quarterly numbers', body: 'See attached.' };
const expectedMessage = {
  subject: 'Quarterly numbers',
  body: { contentType: 'Text', content: 'See attached.' },
  toRecipients: [{ emailAddress: { address: 'ada@weft.example' } }, { emailAddress: { address: 'bob@weft.example' } }],
};

describe('outlook', () => {
  it('outlook_send posts the message to sendMail with the token', async () => {
    const r = await ms.run('outlook_send', { ...tok, ...sent });
    ms.expectRequest('outlook_send', 'POST', '/me/sendMail', { headers: json, body: { message: expectedMessage, saveToSentItems: true } });
    expect(r).toMatchObject({ success: true, output: { message: 'Email sent successfully', results: { status: 'sent' } } });
  });

  it('outlook_send: no token, 401 and 429 give the §5 and §8 messages', async () => {
    await ms.expectError('outlook_send', { ...sent, accessToken: ' ' }, 'Access token is required');
    ms.fake.once('POST', '/me/sendMail', { status: 401, json: { error: { code: 'InvalidAuthenticationToken', message: 'Lifetime validation failed' } } });
    await ms.expectError('outlook_send', { ...tok, ...sent }, 'Invalid or expired access token. Please reauthenticate.');
    ms.fake.once('POST', '/me/sendMail', { status: 429, json: { error: { code: 'TooManyRequests', message: 'slow down' } } });
    await ms.expectError('outlook_send', { ...tok, ...sent }, 'Outlook API quota exceeded. Please try again later.');
  });

  it('outlook_draft creates a message and answers its id', async () => {
    const r = await ms.run('outlook_draft', { ...tok, ...sent });
    ms.expectRequest('outlook_draft', 'POST', '/me/messages', { headers: json, body: expectedMessage });
    expect(r).toMatchObject({ success: true, output: { message: 'Email drafted successfully', results: { id: 'AAMkDraft1', subject: 'Quarterly numbers', status: 'drafted' } } });
    ms.fake.once('POST', '/me/messages', { status: 400, json: { error: { code: 'ErrorInvalidRecipients', message: 'At least one recipient is not valid.' } } });
    await ms.expectError('outlook_draft', { ...tok, ...sent }, 'Outlook API error: At least one recipient is not valid.');
  });

  it('outlook_read reads the folder newest first, clamped to 1-10 (default 1), as §3 emails', async () => {
    const r = await ms.run('outlook_read', { ...tok, folder: 'SentItems', maxResults: 50 });
    ms.expectRequest('outlook_read', 'GET', '/me/mailFolders/sentitems/messages', { headers: auth, query: { $top: '10', $orderby: 'receivedDateTime desc' } });
    const m = MICROSOFT_FIXTURES.mail.value[0]!;
    expect(r).toEqual({
      success: true,
      output: {
        message: 'Successfully read 1 email(s)',
        results: [
          {
            id: m.id,
            subject: 'Hello',
            bodyPreview: 'Hi Ada',
            body: m.body,
            sender: { name: 'Bob', address: 'bob@weft.example' },
            from: { name: 'Bob', address: 'bob@weft.example' },
            toRecipients: [{ name: 'Ada', address: 'ada@weft.example' }],
            ccRecipients: [],
            receivedDateTime: m.receivedDateTime,
            sentDateTime: m.sentDateTime,
            hasAttachments: false,
            isRead: true,
            importance: 'normal',
          },
        ],
      },
    });
    await ms.run('outlook_read', tok);
    ms.expectRequest('outlook_read', 'GET', '/me/mailFolders/inbox/messages', { headers: auth, query: { $top: '1', $orderby: 'receivedDateTime desc' } });
    ms.fake.once('GET', '/me/mailFolders/:folder/messages', { status: 404, json: { error: { code: 'ErrorItemNotFound', message: 'The specified object was not found in the store.' } } });
    await ms.expectError('outlook_read', { ...tok, folder: 'AAMkGone' }, 'Outlook API error: The specified object was not found in the store.');
    ms.expectRequest('outlook_read', 'GET', '/me/mailFolders/AAMkGone/messages', { query: { $top: '1', $orderby: 'receivedDateTime desc' } });
  });

  it("outlook_read maps the block's folder names to Graph's well-known names, any case", async () => {
    const cases = { INBOX: 'inbox', SENT: 'sentitems', DRAFTS: 'drafts', Drafts: 'drafts', TRASH: 'deleteditems', SPAM: 'junkemail', junk: 'junkemail', ARCHIVE: 'archive', outbox: 'outbox' };
    for (const [folder, wellKnown] of Object.entries(cases)) {
      await ms.run('outlook_read', { ...tok, folder });
      ms.expectRequest('outlook_read', 'GET', `/me/mailFolders/${wellKnown}/messages`, { query: { $top: '1', $orderby: 'receivedDateTime desc' } });
    }
    expect(ms.fake.received('GET', '/me/mailFolders')).toEqual([]);
  });

  it("outlook_read looks a custom folder's display name up to its id, and names a folder it cannot find", async () => {
    ms.fake.once('GET', '/me/mailFolders', { json: { value: [{ id: 'AAMkProjects', displayName: "Bob's Projects" }] } });
    await ms.run('outlook_read', { ...tok, folder: "Bob's Projects" });
    ms.expectRequest('outlook_read', 'GET', '/me/mailFolders', { query: { $filter: "displayName eq 'Bob''s Projects'", $select: 'id,displayName' } });
    ms.expectRequest('outlook_read', 'GET', '/me/mailFolders/AAMkProjects/messages', { query: { $top: '1', $orderby: 'receivedDateTime desc' } });
    await ms.expectError(
      'outlook_read',
      { ...tok, folder: 'Receipts 2024' },
      "Outlook folder not found: Receipts 2024. Give a folder id, a well-known folder (inbox, sentitems, drafts, deleteditems, junkemail, archive, outbox) or a top-level folder's name.",
    );
    expect(ms.fake.received('GET', '/me/mailFolders/:folder/messages')).toHaveLength(1);
  });
});

describe('teams', () => {
  it('microsoft_teams_read_chat asks for 50 messages newest first and answers §3 messages', async () => {
    const r = await ms.run('microsoft_teams_read_chat', { ...tok, chatId: '19:abc@thread.v2' });
    ms.expectRequest('microsoft_teams_read_chat', 'GET', '/chats/19%3Aabc%40thread.v2/messages', { headers: auth, query: { $top: '50', $orderby: 'createdDateTime desc' } });
    expect(r).toEqual({
      success: true,
      output: {
        content: '[2025-05-01T10:01:00Z] Ada: Ship it\n[2025-05-01T10:00:00Z] Weft Bot: Build green',
        metadata: { chatId: '19:abc@thread.v2', messageCount: 2 },
        messages: [
          { id: 'm2', content: 'Ship it', sender: 'Ada', timestamp: '2025-05-01T10:01:00Z', messageType: 'message', attachments: [] },
          { id: 'm1', content: 'Build green', sender: 'Weft Bot', timestamp: '2025-05-01T10:00:00Z', messageType: 'message', attachments: [{ id: 'a1', name: 'log.txt' }] },
        ],
      },
    });
    ms.fake.once('GET', '/chats/:chat/messages', { status: 403, json: { error: { code: 'Forbidden', message: 'Missing scope Chat.Read' } } });
    await ms.expectError('microsoft_teams_read_chat', { ...tok, chatId: 'c' }, 'Microsoft Teams API error: Missing scope Chat.Read');
  });

  it('microsoft_teams_read_channel reads a team channel; missing ids and 401 fail with messages', async () => {
    const r = await ms.run('microsoft_teams_read_channel', { ...tok, teamId: 'team-1', channelId: 'chan-1' });
    ms.expectRequest('microsoft_teams_read_channel', 'GET', '/teams/team-1/channels/chan-1/messages', { headers: auth, query: { $top: '50' } });
    expect(r).toMatchObject({ success: true, output: { metadata: { teamId: 'team-1', channelId: 'chan-1', messageCount: 2 } } });
    await ms.expectError('microsoft_teams_read_channel', { ...tok, teamId: 'team-1' }, 'Channel ID is required');
    ms.fake.once('GET', '/teams/:team/channels/:channel/messages', { status: 401, json: { error: { message: 'expired' } } });
    await ms.expectError('microsoft_teams_read_channel', { ...tok, teamId: 't', channelId: 'c' }, 'Invalid or expired access token. Please reauthenticate.');
  });

  it('microsoft_teams_write_chat posts the content and answers the new message', async () => {
    const r = await ms.run('microsoft_teams_write_chat', { ...tok, chatId: 'chat-1', content: 'Hello' });
    ms.expectRequest('microsoft_teams_write_chat', 'POST', '/chats/chat-1/messages', { headers: json, body: { body: { content: 'Hello' } } });
    expect(r).toEqual({
      success: true,
      output: { updatedContent: true, metadata: { chatId: 'chat-1', messageId: 'm3', createdDateTime: '2025-05-01T10:02:00Z', url: 'https://teams.example.invalid/l/message/m3' } },
    });
    await ms.expectError('microsoft_teams_write_chat', { ...tok, chatId: 'chat-1', content: '  ' }, 'Content is required');
  });

  it('microsoft_teams_write_channel posts to the channel and passes Graph errors', async () => {
    const r = await ms.run('microsoft_teams_write_channel', { ...tok, teamId: 'team-1', channelId: 'chan-1', content: 'Release done' });
    ms.expectRequest('microsoft_teams_write_channel', 'POST', '/teams/team-1/channels/chan-1/messages', { headers: json, body: { body: { content: 'Release done' } } });
    expect(r).toMatchObject({ success: true, output: { metadata: { teamId: 'team-1', channelId: 'chan-1', messageId: 'm3' } } });
    ms.fake.once('POST', '/teams/:team/channels/:channel/messages', { status: 403, json: { error: { code: 'Forbidden', message: 'Missing role permissions' } } });
    await ms.expectError('microsoft_teams_write_channel', { ...tok, teamId: 't', channelId: 'c', content: 'x' }, 'Microsoft Teams API error: Missing role permissions');
  });
});

describe('excel', () => {
  it('microsoft_excel_read reads the default range Sheet1!A1:Z1000', async () => {
    const r = await ms.run('microsoft_excel_read', { ...tok, spreadsheetId: 'item-1' });
    ms.expectRequest('microsoft_excel_read', 'GET', range('item-1', 'Sheet1', 'A1:Z1000'), { headers: auth });
    expect(r).toEqual({ success: true, output: { data: { range: 'Sheet1!A1:B2', values: [['name', 'score'], ['ada', 9]] }, metadata: { spreadsheetId: 'item-1' } } });
  });

  it('microsoft_excel_read quotes sheet names and refuses a malformed range', async () => {
    await ms.run('microsoft_excel_read', { ...tok, spreadsheetId: 'item-1', range: "'Q3 Plan'!B2:C9" });
    ms.expectRequest('microsoft_excel_read', 'GET', range('item-1', 'Q3%20Plan', 'B2:C9'), { headers: auth });
    await ms.expectError('microsoft_excel_read', { ...tok, spreadsheetId: 'item-1', range: 'A1:B2' }, 'Invalid range format');
    ms.fake.once('GET', '/me/drive/items/:id/workbook/worksheets(:sheet)/range(:address)', { status: 404, json: { error: { code: 'ItemNotFound', message: 'The resource could not be found.' } } });
    await ms.expectError('microsoft_excel_read', { ...tok, spreadsheetId: 'gone' }, 'Microsoft Excel API error: The resource could not be found.');
  });

  it('microsoft_excel_write turns objects into header plus rows and addresses exactly their cells', async () => {
    const r = await ms.run('microsoft_excel_write', {
      ...tok,
      spreadsheetId: 'item-1',
      range: 'Sheet1!B2',
      values: JSON.stringify([{ name: 'ada', score: 9 }, { name: 'bob' }]),
      includeValuesInResponse: true,
    });
    const rows = [['name', 'score'], ['ada', 9], ['bob', '']];
    ms.expectRequest('microsoft_excel_write', 'PATCH', range('item-1', 'Sheet1', 'B2:C4'), { headers: json, body: { values: rows } });
    expect(r).toEqual({ success: true, output: { updatedRange: 'Sheet1!B2:C3', updatedRows: 3, updatedColumns: 2, updatedCells: 6, metadata: { spreadsheetId: 'item-1' }, values: rows } });
  });

  it('microsoft_excel_write wraps a flat row, marks RAW cells as text, and refuses bad JSON', async () => {
    await ms.run('microsoft_excel_write', { ...tok, spreadsheetId: 'item-1', values: ['=1+1', 'x'], valueInputOption: 'RAW' });
    ms.expectRequest('microsoft_excel_write', 'PATCH', range('item-1', 'Sheet1', 'A1:B1'), { headers: json, body: { values: [['=1+1', 'x']], numberFormat: [['@', '@']] } });
    await ms.expectError('microsoft_excel_write', { ...tok, spreadsheetId: 'item-1', values: '[1,' }, 'Invalid JSON format for values');
    await ms.expectError('microsoft_excel_write', { ...tok, spreadsheetId: 'item-1', values: [] }, 'Values must be a non-empty array');
  });

  it('microsoft_excel_table_add adds value rows (objects in key order, a flat row as one row)', async () => {
    const r = await ms.run('microsoft_excel_table_add', { ...tok, spreadsheetId: 'item-1', tableName: 'Scores', values: [{ name: 'bob', score: 7 }] });
    ms.expectRequest('microsoft_excel_table_add', 'POST', '/me/drive/items/item-1/workbook/tables/Scores/rows/add', { headers: json, body: { values: [['bob', 7]] } });
    expect(r).toEqual({ success: true, output: { index: 4, values: [['bob', 7]], metadata: { spreadsheetId: 'item-1', tableName: 'Scores' } } });
    await ms.run('microsoft_excel_table_add', { ...tok, spreadsheetId: 'item-1', tableName: 'Scores', values: '["carl", 5]' });
    ms.expectRequest('microsoft_excel_table_add', 'POST', '/me/drive/items/item-1/workbook/tables/Scores/rows/add', { body: { values: [['carl', 5]] } });
  });

  it('microsoft_excel_table_add requires a table name and passes Graph errors', async () => {
    await ms.expectError('microsoft_excel_table_add', { ...tok, spreadsheetId: 'item-1', tableName: ' ', values: [[1]] }, 'Table name is required for table operations.');
    ms.fake.once('POST', '/me/drive/items/:id/workbook/tables/:table/rows/add', { status: 400, json: { error: { code: 'InvalidArgument', message: 'The number of columns does not match.' } } });
    await ms.expectError('microsoft_excel_table_add', { ...tok, spreadsheetId: 'item-1', tableName: 'T', values: [[1, 2, 3]] }, 'Microsoft Excel API error: The number of columns does not match.');
  });
});
