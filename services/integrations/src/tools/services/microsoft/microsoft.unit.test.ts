import { MICROSOFT_FIXTURES, createFakeMicrosoft } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { microsoftTools } from './microsoft.tools.js';

const ms = useFamily(createFakeMicrosoft, ['microsoftGraph'], microsoftTools);
const tok = { accessToken: 'eyJ.ms' };
const sent = { to: 'ada@weft.example, bob@weft.example', subject: 'Quarterly numbers', body: 'See attached.' };
const expectedMessage = {
  subject: 'Quarterly numbers',
  body: { contentType: 'Text', content: 'See attached.' },
  toRecipients: [{ emailAddress: { address: 'ada@weft.example' } }, { emailAddress: { address: 'bob@weft.example' } }],
};

describe('outlook', () => {
  it('outlook_send posts the message to sendMail with the token', async () => {
    const r = await ms.run('outlook_send', { ...tok, ...sent });
    const req = ms.only('POST', '/me/sendMail');
    expect(req.headers.authorization).toBe('Bearer eyJ.ms');
    expect(req.body).toEqual({ message: expectedMessage, saveToSentItems: true });
    expect(r).toMatchObject({ success: true, output: { message: 'Email sent successfully', results: { status: 'sent' } } });
  });

  it('outlook_send: no token, 401 and 429 give the §5 and §8 messages', async () => {
    expect(await ms.run('outlook_send', { ...sent, accessToken: ' ' })).toEqual({ success: false, output: {}, error: 'Access token is required' });
    ms.fake.once('POST', '/me/sendMail', { status: 401, json: { error: { code: 'InvalidAuthenticationToken', message: 'Lifetime validation failed' } } });
    expect(await ms.run('outlook_send', { ...tok, ...sent })).toMatchObject({ error: 'Invalid or expired access token. Please reauthenticate.' });
    ms.fake.once('POST', '/me/sendMail', { status: 429, json: { error: { code: 'TooManyRequests', message: 'slow down' } } });
    expect(await ms.run('outlook_send', { ...tok, ...sent })).toMatchObject({ error: 'Outlook API quota exceeded. Please try again later.' });
  });

  it('outlook_draft creates a message and answers its id', async () => {
    const r = await ms.run('outlook_draft', { ...tok, ...sent });
    expect(ms.only('POST', '/me/messages').body).toEqual(expectedMessage);
    expect(r).toMatchObject({ success: true, output: { message: 'Email drafted successfully', results: { id: 'AAMkDraft1', subject: 'Quarterly numbers', status: 'drafted' } } });
    ms.fake.once('POST', '/me/messages', { status: 400, json: { error: { code: 'ErrorInvalidRecipients', message: 'At least one recipient is not valid.' } } });
    expect(await ms.run('outlook_draft', { ...tok, ...sent })).toMatchObject({ error: 'Outlook API error: At least one recipient is not valid.' });
  });

  it('outlook_read reads the folder newest first, clamped to 1-10 (default 1), as §3 emails', async () => {
    const r = await ms.run('outlook_read', { ...tok, folder: 'SentItems', maxResults: 50 });
    expect(ms.only('GET', '/me/mailFolders/SentItems/messages').query).toEqual({ $top: '10', $orderby: 'receivedDateTime desc' });
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
    expect(ms.only('GET', '/me/mailFolders/inbox/messages').query.$top).toBe('1');
  });
});

describe('teams', () => {
  it('microsoft_teams_read_chat asks for 50 messages newest first and answers §3 messages', async () => {
    const r = await ms.run('microsoft_teams_read_chat', { ...tok, chatId: '19:abc@thread.v2' });
    const req = ms.only('GET', '/chats/:chat/messages');
    expect(req.path).toBe('/chats/19%3Aabc%40thread.v2/messages');
    expect(req.query).toEqual({ $top: '50', $orderby: 'createdDateTime desc' });
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
  });

  it('microsoft_teams_read_channel reads a team channel; missing ids and 401 fail with messages', async () => {
    const r = await ms.run('microsoft_teams_read_channel', { ...tok, teamId: 'team-1', channelId: 'chan-1' });
    expect(ms.only('GET', '/teams/team-1/channels/chan-1/messages').query).toEqual({ $top: '50' });
    expect(r).toMatchObject({ success: true, output: { metadata: { teamId: 'team-1', channelId: 'chan-1', messageCount: 2 } } });
    expect(await ms.run('microsoft_teams_read_channel', { ...tok, teamId: 'team-1' })).toMatchObject({ error: 'Channel ID is required' });
    ms.fake.once('GET', '/teams/:team/channels/:channel/messages', { status: 401, json: { error: { message: 'expired' } } });
    expect(await ms.run('microsoft_teams_read_channel', { ...tok, teamId: 't', channelId: 'c' })).toMatchObject({ error: 'Invalid or expired access token. Please reauthenticate.' });
  });

  it('microsoft_teams_write_chat posts the content and answers the new message', async () => {
    const r = await ms.run('microsoft_teams_write_chat', { ...tok, chatId: 'chat-1', content: 'Hello' });
    expect(ms.only('POST', '/chats/chat-1/messages').body).toEqual({ body: { content: 'Hello' } });
    expect(r).toEqual({
      success: true,
      output: { updatedContent: true, metadata: { chatId: 'chat-1', messageId: 'm3', createdDateTime: '2025-05-01T10:02:00Z', url: 'https://teams.microsoft.com/l/message/m3' } },
    });
    expect(await ms.run('microsoft_teams_write_chat', { ...tok, chatId: 'chat-1', content: '  ' })).toMatchObject({ error: 'Content is required' });
  });

  it('microsoft_teams_write_channel posts to the channel and passes Graph errors', async () => {
    const r = await ms.run('microsoft_teams_write_channel', { ...tok, teamId: 'team-1', channelId: 'chan-1', content: 'Release done' });
    expect(ms.only('POST', '/teams/team-1/channels/chan-1/messages').body).toEqual({ body: { content: 'Release done' } });
    expect(r).toMatchObject({ success: true, output: { metadata: { teamId: 'team-1', channelId: 'chan-1', messageId: 'm3' } } });
    ms.fake.once('POST', '/teams/:team/channels/:channel/messages', { status: 403, json: { error: { code: 'Forbidden', message: 'Missing role permissions' } } });
    expect(await ms.run('microsoft_teams_write_channel', { ...tok, teamId: 't', channelId: 'c', content: 'x' })).toMatchObject({ error: 'Microsoft Teams API error: Missing role permissions' });
  });
});

describe('excel', () => {
  it('microsoft_excel_read reads the default range Sheet1!A1:Z1000', async () => {
    const r = await ms.run('microsoft_excel_read', { ...tok, spreadsheetId: 'item-1' });
    const [req] = ms.fake.received('GET', '/me/drive/items/:id/workbook/worksheets(:sheet)/range(:address)');
    expect(req?.path).toBe("/me/drive/items/item-1/workbook/worksheets('Sheet1')/range(address='A1:Z1000')");
    expect(req?.headers.authorization).toBe('Bearer eyJ.ms');
    expect(r).toEqual({ success: true, output: { data: { range: 'Sheet1!A1:B2', values: [['name', 'score'], ['ada', 9]] }, metadata: { spreadsheetId: 'item-1' } } });
  });

  it('microsoft_excel_read quotes sheet names and refuses a malformed range', async () => {
    await ms.run('microsoft_excel_read', { ...tok, spreadsheetId: 'item-1', range: "'Q3 Plan'!B2:C9" });
    expect(ms.fake.requests[0]?.path).toBe("/me/drive/items/item-1/workbook/worksheets('Q3%20Plan')/range(address='B2:C9')");
    expect(await ms.run('microsoft_excel_read', { ...tok, spreadsheetId: 'item-1', range: 'A1:B2' })).toEqual({ success: false, output: {}, error: 'Invalid range format' });
    ms.fake.once('GET', '/me/drive/items/:id/workbook/worksheets(:sheet)/range(:address)', { status: 404, json: { error: { code: 'ItemNotFound', message: 'The resource could not be found.' } } });
    expect(await ms.run('microsoft_excel_read', { ...tok, spreadsheetId: 'gone' })).toMatchObject({ error: 'Microsoft Excel API error: The resource could not be found.' });
  });

  it('microsoft_excel_write turns objects into header plus rows and addresses exactly their cells', async () => {
    const r = await ms.run('microsoft_excel_write', {
      ...tok,
      spreadsheetId: 'item-1',
      range: 'Sheet1!B2',
      values: JSON.stringify([{ name: 'ada', score: 9 }, { name: 'bob' }]),
      includeValuesInResponse: true,
    });
    const [req] = ms.fake.received('PATCH', '/me/drive/items/:id/workbook/worksheets(:sheet)/range(:address)');
    expect(req?.path).toBe("/me/drive/items/item-1/workbook/worksheets('Sheet1')/range(address='B2:C4')");
    const rows = [['name', 'score'], ['ada', 9], ['bob', '']];
    expect(req?.body).toEqual({ values: rows });
    expect(r).toEqual({ success: true, output: { updatedRange: 'Sheet1!B2:C3', updatedRows: 3, updatedColumns: 2, updatedCells: 6, metadata: { spreadsheetId: 'item-1' }, values: rows } });
  });

  it('microsoft_excel_write wraps a flat row, marks RAW cells as text, and refuses bad JSON', async () => {
    await ms.run('microsoft_excel_write', { ...tok, spreadsheetId: 'item-1', values: ['=1+1', 'x'], valueInputOption: 'RAW' });
    const [req] = ms.fake.received('PATCH', '/me/drive/items/:id/workbook/worksheets(:sheet)/range(:address)');
    expect(req?.path).toBe("/me/drive/items/item-1/workbook/worksheets('Sheet1')/range(address='A1:B1')");
    expect(req?.body).toEqual({ values: [['=1+1', 'x']], numberFormat: [['@', '@']] });
    expect(await ms.run('microsoft_excel_write', { ...tok, spreadsheetId: 'item-1', values: '[1,' })).toMatchObject({ error: 'Invalid JSON format for values' });
    expect(await ms.run('microsoft_excel_write', { ...tok, spreadsheetId: 'item-1', values: [] })).toMatchObject({ error: 'Values must be a non-empty array' });
  });

  it('microsoft_excel_table_add adds value rows (objects in key order, a flat row as one row)', async () => {
    const r = await ms.run('microsoft_excel_table_add', { ...tok, spreadsheetId: 'item-1', tableName: 'Scores', values: [{ name: 'bob', score: 7 }] });
    expect(ms.only('POST', '/me/drive/items/item-1/workbook/tables/Scores/rows/add').body).toEqual({ values: [['bob', 7]] });
    expect(r).toEqual({ success: true, output: { index: 4, values: [['bob', 7]], metadata: { spreadsheetId: 'item-1', tableName: 'Scores' } } });
    await ms.run('microsoft_excel_table_add', { ...tok, spreadsheetId: 'item-1', tableName: 'Scores', values: '["carl", 5]' });
    expect(ms.fake.received('POST', '/me/drive/items/item-1/workbook/tables/Scores/rows/add')[1]?.body).toEqual({ values: [['carl', 5]] });
  });

  it('microsoft_excel_table_add requires a table name and passes Graph errors', async () => {
    expect(await ms.run('microsoft_excel_table_add', { ...tok, spreadsheetId: 'item-1', tableName: ' ', values: [[1]] })).toMatchObject({ error: 'Table name is required for table operations.' });
    ms.fake.once('POST', '/me/drive/items/:id/workbook/tables/:table/rows/add', { status: 400, json: { error: { code: 'InvalidArgument', message: 'The number of columns does not match.' } } });
    expect(await ms.run('microsoft_excel_table_add', { ...tok, spreadsheetId: 'item-1', tableName: 'T', values: [[1, 2, 3]] })).toMatchObject({ error: 'Microsoft Excel API error: The number of columns does not match.' });
  });
});
