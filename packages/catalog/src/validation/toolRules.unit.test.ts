import { describe, expect, it } from 'vitest';
import { documentFileName, validateKnowledgeDocument } from './knowledge.validate.js';
import { validateMemoryTool } from './memory.validate.js';
import { parsePages, validateMistralTool } from './mistralParse.validate.js';
import { parseS3ObjectUrl, S3_URL_EXAMPLE } from './s3.validate.js';
import { validateToolParams } from './toolParams.validate.js';
import { formatNotionId } from '../tools/notion.tools.js';
import { gmailFolderQuery } from '../tools/gmail.tools.js';

describe('tool-level rules', () => {
  it('requires user-or-llm parameters (spec 000 §5)', () => {
    expect(validateToolParams('slack_message', { channel: 'C1' })).toEqual({
      success: false,
      error: 'Parameter "text" is required for slack_message but was not provided.',
    });
    expect(validateToolParams('slack_message', { text: 'hi' })).toEqual({ success: true });
    expect(validateToolParams('nope', {})).toEqual({ success: false, error: 'Tool not found: nope' });
  });

  it('memory tools need a workflowId and, to add, a role and content', () => {
    expect(validateMemoryTool('memory_get', { id: 'm' }, {})).toBe('workflowId is required and must be provided in execution context');
    expect(validateMemoryTool('memory_add', { id: 'm', role: 'user' }, { workflowId: 'w' })).toBe('Role and content are required for agent memory');
    expect(validateMemoryTool('memory_add', { id: 'm', role: 'user', content: 'c' }, { workflowId: 'w' })).toBeUndefined();
  });

  it('knowledge documents: name required, content at least 10 characters, .txt appended', () => {
    expect(validateKnowledgeDocument('', 'long enough content')).toBe('Document name error: Document name is required');
    expect(validateKnowledgeDocument('notes', 'short')).toBe('Document content error: Document content must be at least 10 characters long');
    expect(validateKnowledgeDocument('notes', 'long enough content')).toBeUndefined();
    expect(documentFileName('notes')).toBe('notes.txt');
    expect(documentFileName('notes.TXT')).toBe('notes.TXT');
  });

  it('Mistral pages and URLs', () => {
    expect(parsePages('0, 3,12')).toEqual({ ok: true, pages: [0, 3, 12] });
    expect(parsePages('1,x')).toEqual({ ok: false, error: 'Page number format error: Invalid page number: x' });
    expect(validateMistralTool({ apiKey: 'k', filePath: 'https://drive.google.com/file/d/1' })).toMatch(/^Google Drive and Google Docs links are not supported/);
    expect(validateMistralTool({ apiKey: 'k', filePath: 'ftp://files.example.invalid/a.pdf' })).toMatch(/^Invalid URL format/);
    expect(validateMistralTool({ apiKey: 'k', filePath: 'https://files.example.invalid/report' })).toBeUndefined();
  });

  it('S3 object URLs', () => {
    // Object URLs of a reserved domain (the parser's default is S3's own, the placeholder's).
    const domain = 'example.invalid';
    expect(parseS3ObjectUrl('https://b.s3.us-west-2.example.invalid/k/e%20y.txt', domain)).toEqual({
      ok: true,
      value: { bucketName: 'b', region: 'us-west-2', objectKey: 'k/e y.txt' },
    });
    expect(parseS3ObjectUrl('https://b.s3-eu-west-1.example.invalid/k', domain)).toMatchObject({ value: { bucketName: 'b', region: 'eu-west-1' } });
    expect(parseS3ObjectUrl('https://docs.s3.example.invalid/a.txt', domain)).toMatchObject({ value: { bucketName: 'docs', region: 'us-east-1', objectKey: 'a.txt' } });
    expect(parseS3ObjectUrl('https://b.s3.us-west-2.example.invalid/', domain)).toEqual({ ok: false, error: 'Invalid S3 Object URL format. Expected format: https://bucket-name.s3.region.example.invalid/path/to/file' });
    expect(parseS3ObjectUrl('https://b.s3.us-west-2.example.invalid/%E0%A4%A', domain)).toMatchObject({ ok: false });
    expect(parseS3ObjectUrl(S3_URL_EXAMPLE)).toEqual({ ok: true, value: { bucketName: 'bucket-name', region: 'region', objectKey: 'path/to/file' } });
    expect(parseS3ObjectUrl('https://b.s3.us-west-2.example.invalid/k/e%20y.txt')).toEqual({ ok: false, error: `Invalid S3 Object URL format. Expected format: ${S3_URL_EXAMPLE}` });
    expect(parseS3ObjectUrl('https://files.example.invalid/file').ok).toBe(false);
  });

  it('Notion ids without dashes become 8-4-4-4-12', () => {
    expect(formatNotionId('0123456789abcdef0123456789abcdef')).toBe('01234567-89ab-cdef-0123-456789abcdef');
    expect(formatNotionId('01234567-89ab-cdef-0123-456789abcdef')).toBe('01234567-89ab-cdef-0123-456789abcdef');
  });

  it('Gmail folders map to in: for system folders and label: otherwise', () => {
    expect(gmailFolderQuery('SENT')).toBe('in:sent');
    expect(gmailFolderQuery('Receipts')).toBe('label:Receipts');
    expect(gmailFolderQuery('')).toBe('in:inbox');
  });
});
