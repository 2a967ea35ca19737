import { describe, expect, it } from 'vitest';
import { deferredToRun, holdsRunTimeValue, validateBlockParams } from './registry.js';
import { S3_URL_EXAMPLE } from './s3.validate.js';

type Case = readonly [rule: string, blockType: string, params: Record<string, unknown>, message: string];

const slackOk = { operation: 'send', authMethod: 'oauth', credential: 'cred', channel: 'C1', text: 'hi' };
const s3Ok = { accessKeyId: 'AK', secretAccessKey: 'SK', s3Uri: S3_URL_EXAMPLE };
const wbTask = { operation: 'write_task', credential: 'c', contactId: '7', title: 'Call', dueDate: '2015-05-24 11:00 AM -0400' };
const longName = 'n'.repeat(256);

const CASES: readonly Case[] = [
  ['airtable unknown operation', 'airtable', { operation: 'drop' }, 'Invalid Airtable operation: drop'],
  ['confluence page id', 'confluence', { operation: 'read', pageId: '  ', manualPageId: '' }, 'Page ID is required. Please select a page or enter a page ID manually.'],
  ['discord bot token', 'discord', { operation: 'discord_get_server', serverId: '1' }, 'Bot token required for this operation'],
  ['discord server id', 'discord', { operation: 'discord_send_message', botToken: 't', channelId: '2' }, 'Server ID is required'],
  ['discord channel id', 'discord', { operation: 'discord_get_messages', botToken: 't', serverId: '1' }, 'Channel ID is required'],
  ['file url', 'file', { inputMethod: 'url', filePath: ' ' }, 'File URL is required'],
  ['file upload', 'file', { inputMethod: 'upload', file: [] }, 'Please upload a file'],
  ['sheets spreadsheet id', 'google_sheets', { operation: 'read' }, 'Spreadsheet ID is required. Please select a spreadsheet or enter an ID manually.'],
  ['excel values json', 'microsoft_excel', { operation: 'write', spreadsheetId: 's', values: '[[1,' }, 'Invalid JSON format for values'],
  ['excel spreadsheet id', 'microsoft_excel', { operation: 'read' }, 'Spreadsheet ID is required. Please select a spreadsheet or enter an ID manually.'],
  ['excel table name', 'microsoft_excel', { operation: 'table_add', spreadsheetId: 's', values: '[[1]]' }, 'Table name is required for table operations.'],
  ['excel range format', 'microsoft_excel', { operation: 'read', spreadsheetId: 's', range: 'A1:B2' }, 'Invalid range format'],
  ['teams chat id', 'microsoft_teams', { operation: 'read_chat', credential: 'c' }, 'Chat ID is required. Please select a chat or enter a chat ID manually.'],
  ['teams team id', 'microsoft_teams', { operation: 'read_channel', channelId: 'x' }, 'Team ID is required. Please select a team or enter a team ID manually.'],
  ['teams channel id', 'microsoft_teams', { operation: 'write_channel', manualTeamId: 't' }, 'Channel ID is required. Please select a channel or enter a channel ID manually.'],
  ['image api key', 'image_generator', { prompt: 'a cat' }, 'API key is required'],
  ['image prompt', 'image_generator', { apiKey: 'k', prompt: '' }, 'Prompt is required'],
  ['jira write project', 'jira', { operation: 'write' }, 'Project ID is required.'],
  ['jira read issue', 'jira', { operation: 'read', projectId: 'P' }, 'Issue Key is required.'],
  ['knowledge search ids', 'knowledge', { operation: 'search', query: 'q' }, 'Knowledge base IDs are required for search'],
  ['knowledge upload kb', 'knowledge', { operation: 'upload_chunk', documentId: 'd' }, 'Knowledge base ID is required'],
  ['knowledge upload document', 'knowledge', { operation: 'upload_chunk', knowledgeBaseId: 'kb' }, 'Document ID is required for uploading a chunk'],
  ['knowledge document name length', 'knowledge', { operation: 'create_document', knowledgeBaseId: 'kb', name: longName, content: 'long enough content' },
    'Document name error: Document name must be 255 characters or less. Please use a shorter filename.'],
  ['knowledge document name characters', 'knowledge', { operation: 'create_document', knowledgeBaseId: 'kb', name: 'a/b', content: 'long enough content' },
    'Document name error: Document name contains invalid characters. Avoid using: < > : " / \\ | ? *'],
  ['knowledge document content size', 'knowledge', { operation: 'create_document', knowledgeBaseId: 'kb', name: 'n', content: 'x'.repeat(1_000_001) },
    'Document content error: Document content exceeds maximum size of 1MB. Please split large content into smaller documents.'],
  ['linear team', 'linear', { operation: 'read', projectId: 'p' }, 'Team ID is required'],
  ['linear title', 'linear', { operation: 'write', teamId: 't', projectId: 'p', title: '   ', description: 'd' }, 'Title is required to create a Linear issue'],
  ['mem0 joined list', 'mem0', { operation: 'search', query: ' ' }, 'Mem0 Block Error: API Key is required, Search Query is required, User ID is required'],
  ['mem0 messages', 'mem0', { operation: 'add', apiKey: 'k', userId: 'u', messages: '[{"role":"user"}]' }, 'Mem0 Block Error: Each message must have role and content'],
  ['mem0 empty messages', 'mem0', { operation: 'add', apiKey: 'k', userId: 'u', messages: '[]' }, 'Mem0 Block Error: Messages must be a non-empty array'],
  ['mem0 invalid json', 'mem0', { operation: 'add', apiKey: 'k', messages: '[oops' }, 'Mem0 Block Error: Messages must be valid JSON, User ID is required'],
  ['memory operation', 'memory', { id: 'm' }, 'Memory Block Error: Operation is required'],
  ['memory add', 'memory', { operation: 'add' }, 'Memory Block Error: Memory ID is required for add operation, Role is required for agent memory, Content is required for agent memory'],
  ['mistral key', 'mistral_parse', { inputMethod: 'url', filePath: 'https://files.example.invalid/a.pdf' }, 'Mistral API key is required'],
  ['mistral url', 'mistral_parse', { apiKey: 'k', inputMethod: 'url' }, 'PDF Document URL is required'],
  ['mistral upload', 'mistral_parse', { apiKey: 'k', inputMethod: 'upload' }, 'Please upload a PDF document'],
  ['mistral pages', 'mistral_parse', { apiKey: 'k', filePath: 'https://files.example.invalid/a.pdf', pages: '0, 2, -1' }, 'Page number format error: Invalid page number: -1'],
  ['notion json', 'notion', { operation: 'notion_query_database', databaseId: 'd', filter: '{bad' }, 'Invalid JSON for filter: '],
  ['evaluator no model', 'evaluator', { model: '' }, 'No model selected'],
  ['translate invalid model', 'translate', { model: 'gpt-9' }, 'Invalid model selected: gpt-9'],
  ['slack channel', 'slack', { ...slackOk, channel: '', manualChannel: ' ' }, 'Channel is required. Please select a channel or enter a channel ID manually.'],
  ['slack bot token', 'slack', { ...slackOk, authMethod: 'bot_token' }, 'Bot token is required when using bot token authentication'],
  ['slack credential', 'slack', { ...slackOk, credential: '' }, 'Slack account credential is required when using Sim Studio Bot'],
  ['slack text', 'slack', { ...slackOk, text: '' }, 'Message text is required for send operation'],
  ['slack canvas', 'slack', { ...slackOk, operation: 'canvas', title: 'T' }, 'Title and content are required for canvas operation'],
  ['slack unknown operation', 'slack', { ...slackOk, operation: 'delete' }, 'Invalid Slack operation'],
  ['s3 access key', 's3', { ...s3Ok, accessKeyId: '' }, 'Access Key ID is required'],
  ['s3 secret', 's3', { ...s3Ok, secretAccessKey: '' }, 'Secret Access Key is required'],
  ['s3 url', 's3', { ...s3Ok, s3Uri: '' }, 'S3 Object URL is required'],
  ['s3 url format', 's3', { ...s3Ok, s3Uri: new URL('/', S3_URL_EXAMPLE).href },
    `Invalid S3 Object URL format. Expected format: ${S3_URL_EXAMPLE}`],
  ['supabase json', 'supabase', { operation: 'insert', data: '{"a":' }, 'Invalid JSON data format'],
  ['supabase delete filter', 'supabase', { operation: 'delete', filter: '  ' }, 'Filter is required for delete operations to prevent accidental deletion of all rows'],
  ['supabase unknown operation', 'supabase', { operation: 'upsert' }, 'Invalid Supabase operation'],
  ['wealthbox contact ops', 'wealthbox', { operation: 'read_contact' }, 'Contact ID is required for contact operations'],
  ['wealthbox task ops', 'wealthbox', { operation: 'read_task' }, 'Task ID is required for task operations'],
  ['wealthbox this operation', 'wealthbox', { ...wbTask, contactId: '' }, 'Contact ID is required for this operation'],
  ['wealthbox first name', 'wealthbox', { operation: 'write_contact', lastName: 'L' }, 'First name is required'],
  ['wealthbox last name', 'wealthbox', { operation: 'write_contact', firstName: 'F' }, 'Last name is required'],
  ['wealthbox note content', 'wealthbox', { operation: 'write_note', contactId: '1' }, 'Note content is required'],
  ['wealthbox task title', 'wealthbox', { ...wbTask, title: '' }, 'Task title is required'],
  ['wealthbox due date', 'wealthbox', { ...wbTask, dueDate: '' }, 'Due date is required'],
  ['wealthbox due date format', 'wealthbox', { ...wbTask, dueDate: '2015-05-24' },
    'Invalid due date format. Expected format: YYYY-MM-DD HH:MM AM/PM -HHMM (e.g. 2015-05-24 11:00 AM -0400)'],
  ['wealthbox unknown operation', 'wealthbox', { operation: 'merge' }, 'Unknown operation: merge'],
  ['whatsapp phone number', 'whatsapp', { message: 'm', phoneNumberId: 'p', accessToken: 't' }, 'Phone number is required'],
  ['whatsapp access token', 'whatsapp', { phoneNumber: '+1', message: 'm', phoneNumberId: 'p' }, 'Access token is required'],
  ['twilio from number', 'twilio_sms', { phoneNumbers: '+1', message: 'm', accountSid: 'a', authToken: 't' }, 'From number is required but not provided'],
  ['docs document id', 'google_docs', { operation: 'read' }, 'Document ID is required'],
  ['docs content', 'google_docs', { operation: 'write', documentId: 'd' }, 'Content is required'],
  ['docs title', 'google_docs', { operation: 'create' }, 'Title is required'],
];

describe('validateBlockParams: §5 messages word for word', () => {
  it.each(CASES)('%s', (_rule, blockType, params, message) => {
    const result = validateBlockParams(blockType, params);
    expect(result.success).toBe(false);
    if (result.success) return;
    if (message.endsWith(': ')) {
      expect(result.error.startsWith(message)).toBe(true);
      expect(result.error.length).toBeGreaterThan(message.length);
    } else {
      expect(result.error).toBe(message);
    }
  });

  it('Airtable names the operation and the JSON error', () => {
    const result = validateBlockParams('airtable', { operation: 'create', records: '[{' });
    expect(result).toMatchObject({ success: false });
    if (!result.success) expect(result.error).toMatch(/^Invalid JSON input for create operation: .+/);
  });

  it('passes well-formed parameters', () => {
    expect(validateBlockParams('slack', slackOk)).toEqual({ success: true });
    expect(validateBlockParams('s3', s3Ok)).toEqual({ success: true });
    expect(validateBlockParams('wealthbox', wbTask)).toEqual({ success: true });
    expect(validateBlockParams('translate', { model: 'claude-sonnet-4-0' })).toEqual({ success: true });
    expect(validateBlockParams('supabase', { operation: 'delete', filter: 'id=eq.1' })).toEqual({ success: true });
    expect(validateBlockParams('mistral_parse', { apiKey: 'k', filePath: 'https://files.example.invalid/a.pdf', pages: '0, 1,2' })).toEqual({ success: true });
    expect(validateBlockParams('agent', {})).toEqual({ success: true });
  });

  it('refuses an unknown block type', () => {
    expect(validateBlockParams('loop', {})).toEqual({ success: false, error: 'Unknown block type: loop' });
  });

  it('tells a message about a field holding a reference or {{KEY}} apart: the runner checks it resolved', () => {
    expect(holdsRunTimeValue('<agent.content>')).toBe(true);
    expect(holdsRunTimeValue([{ cells: { Value: 'Bearer {{TOKEN}}' } }])).toBe(true);
    expect(holdsRunTimeValue('a < b and c > d')).toBe(false);
    // Names and keys the runner reads beyond letters, digits and `_` (a block named "Agent-2" or "Résumé").
    expect(holdsRunTimeValue('<agent-2.tokens.total>')).toBe(true);
    expect(holdsRunTimeValue('<résumé.content>')).toBe(true);
    expect(holdsRunTimeValue('{{API-KEY}}')).toBe(true);
    expect(holdsRunTimeValue('<b>bold</b>')).toBe(false);
    const error = 'Invalid JSON format for values';
    expect(validateBlockParams('google_sheets', { spreadsheetId: 's', values: '<agent.content>' })).toEqual({ success: false, error });
    expect(deferredToRun('google_sheets', { spreadsheetId: 's', values: '<agent.content>' }, error)).toBe(true);
    expect(deferredToRun('google_sheets', { spreadsheetId: 's', values: '[oops' }, error)).toBe(false);
  });

  it('accepts a model no hosted provider claims for Evaluator and Translate: the local server is asked when the block runs', () => {
    expect(validateBlockParams('translate', { model: 'llama3.2:latest' })).toEqual({ success: true });
    expect(validateBlockParams('evaluator', { model: 'gpt-9' })).toEqual({ success: false, error: 'Invalid model selected: gpt-9' });
  });
});
