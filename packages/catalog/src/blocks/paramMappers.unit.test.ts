import { describe, expect, it } from 'vitest';
import { S3_URL_EXAMPLE } from '../validation/s3.validate.js';
import { SMTP_PRESETS } from './email.block.js';
import { getBlock } from './registry.js';
import { SLACK_READ_MAX, slackReadLimit } from './slack.block.js';
import { workflowOptions } from './workflow.block.js';

function mapper(type: string) {
  const params = getBlock(type)?.tools.config?.params;
  if (!params) throw new Error(`${type} has no mapper`);
  return params;
}

function selector(type: string) {
  const tool = getBlock(type)?.tools.config?.tool;
  if (!tool) throw new Error(`${type} has no selector`);
  return tool;
}

describe('block parameter mappers', () => {
  it('both readings: the Slack read limit defaults to 10 and is capped at 15, not 100', () => {
    expect(SLACK_READ_MAX).toBe(15);
    expect(slackReadLimit('')).toBe(10);
    expect(slackReadLimit('abc')).toBe(10);
    expect(slackReadLimit('50')).toBe(15);
    expect(slackReadLimit(3)).toBe(3);
    expect(mapper('slack')({ operation: 'read', authMethod: 'bot_token', botToken: ' xoxb ', manualChannel: 'C9', limit: '100' }))
      .toEqual({ accessToken: 'xoxb', channel: 'C9', limit: 15 });
  });

  it('S3 sends bucket, region and key read from the object URL (the parser\'s cases, the default us-east-1 too: toolRules)', () => {
    const base = { accessKeyId: 'a', secretAccessKey: 's' };
    expect(mapper('s3')({ ...base, s3Uri: new URL('/reports/q1%20final.pdf', S3_URL_EXAMPLE).href }))
      .toEqual({ ...base, bucketName: 'bucket-name', region: 'region', objectKey: 'reports/q1 final.pdf' });
    expect(() => mapper('s3')({ ...base, s3Uri: new URL('/', S3_URL_EXAMPLE).href })).toThrow(`Invalid S3 Object URL format. Expected format: ${S3_URL_EXAMPLE}`);
  });

  it('Supabase trims the filter, omits it when empty and wraps one inserted object in an array', () => {
    expect(mapper('supabase')({ operation: 'insert', data: '{"a":1}', filter: '  ' })).toMatchObject({ data: [{ a: 1 }] });
    expect(mapper('supabase')({ operation: 'insert', data: '{"a":1}', filter: '  ' })).not.toHaveProperty('filter');
    expect(mapper('supabase')({ operation: 'update', data: '{"a":1}', filter: ' id=eq.1 ' })).toMatchObject({ data: { a: 1 }, filter: 'id=eq.1' });
  });

  it('X turns true/false into booleans, splits media ids and raises search results to 10', () => {
    expect(mapper('x')({ operation: 'x_read', includeReplies: 'true' })).toMatchObject({ includeReplies: true });
    expect(mapper('x')({ operation: 'x_write', mediaIds: ' 1, ,2 ,' })).toMatchObject({ mediaIds: ['1', '2'] });
    expect(mapper('x')({ operation: 'x_search', maxResults: '5' })).toMatchObject({ maxResults: 10 });
    expect(mapper('x')({ operation: 'x_search', maxResults: '500' })).toMatchObject({ maxResults: 100 });
  });

  it('Reddit strips r/, clamps limits and sends time only for top', () => {
    expect(mapper('reddit')({ operation: 'get_posts', subreddit: 'r/typescript', sort: 'new', time: 'week', limit: '500' }))
      .toEqual({ credential: undefined, subreddit: 'typescript', sort: 'new', limit: 100 });
    expect(mapper('reddit')({ operation: 'get_posts', subreddit: 'ts', sort: 'top', time: 'week' })).toMatchObject({ time: 'week', limit: 10 });
    expect(mapper('reddit')({ operation: 'get_comments', subreddit: 'ts', postId: 'abc' })).toMatchObject({ limit: 50, sort: 'confidence' });
  });

  it('Discord message limit defaults to 10, clamped 1..100', () => {
    expect(mapper('discord')({ operation: 'discord_get_messages', limit: '' })).toMatchObject({ limit: 10 });
    expect(mapper('discord')({ operation: 'discord_get_messages', limit: '0' })).toMatchObject({ limit: 1 });
  });

  it('Calendar defaults to primary, splits attendees and sends updates to all', () => {
    expect(mapper('google_calendar')({ operation: 'create', attendees: 'a@example.invalid, ,b@example.invalid' }))
      .toMatchObject({ calendarId: 'primary', attendees: ['a@example.invalid', 'b@example.invalid'], sendUpdates: 'all' });
  });

  it('Outlook and Gmail read 1 by default, at most 10, from INBOX', () => {
    expect(mapper('outlook')({ operation: 'read_outlook' })).toMatchObject({ folder: 'INBOX', maxResults: 1 });
    expect(mapper('gmail')({ operation: 'read_gmail', maxResults: '99' })).toMatchObject({ folder: 'INBOX', maxResults: 10 });
  });

  it('Firecrawl parses the crawl limit as an integer', () => {
    expect(mapper('firecrawl')({ operation: 'crawl', limit: '25.7' })).toMatchObject({ limit: 25 });
    expect(mapper('firecrawl')({ operation: 'crawl', limit: '' })).toMatchObject({ limit: 100 });
  });

  it('Typeform ignores completed=all', () => {
    expect(mapper('typeform')({ operation: 'responses', completed: 'all' })).not.toHaveProperty('completed');
    expect(mapper('typeform')({ operation: 'responses', completed: 'true' })).toMatchObject({ completed: 'true' });
  });

  it('image generator sends quality and style only for dall-e-3, background only for gpt-image-1', () => {
    expect(mapper('image_generator')({ model: 'dall-e-3', prompt: 'p', background: 'opaque' })).not.toHaveProperty('background');
    expect(mapper('image_generator')({ model: 'gpt-image-1', prompt: 'p', quality: 'hd', background: 'opaque' }))
      .toEqual({ model: 'gpt-image-1', prompt: 'p', size: '1024x1024', n: 1, apiKey: undefined, background: 'opaque' });
  });

  it('model blocks call the chat tool of the chosen model provider', () => {
    expect(selector('agent')({ model: 'claude-sonnet-4-0' })).toBe('anthropic_chat');
    expect(selector('evaluator')({})).toBe('openai_chat');
    expect(selector('router')({ model: 'gemini-2.5-pro' })).toBe('google_chat');
    expect(selector('translate')({ model: 'llama3.2' })).toBe('ollama_chat');
  });

  it('knowledge search clamps topK 1..100 and splits comma separated bases', () => {
    expect(mapper('knowledge')({ operation: 'search', knowledgeBaseIds: 'a, b', topK: '500' })).toMatchObject({ knowledgeBaseIds: ['a', 'b'], topK: 100 });
    expect(mapper('knowledge')({ operation: 'search', knowledgeBaseIds: 'a' })).toMatchObject({ topK: 10 });
  });

  it('email presets fill host and port from the preset table, each on port 587', () => {
    for (const provider of ['gmail', 'outlook', 'yahoo'] as const) {
      expect(SMTP_PRESETS[provider].port).toBe(587);
      expect(mapper('email')({ provider, to: 'a@example.invalid' })).toMatchObject(SMTP_PRESETS[provider]);
    }
    expect(mapper('email')({ provider: 'custom', host: 'mail.example.invalid', port: 2525 })).toMatchObject({ host: 'mail.example.invalid', port: 2525 });
  });

  it('workflow picker leaves out the current workflow, sorts by name, labels unnamed ones', () => {
    const options = workflowOptions([{ id: 'cur' }, { id: 'b', name: 'Zeta' }, { id: 'abcdef1234567', name: '' }, { id: 'c', name: 'Alpha' }], 'cur');
    expect(options).toEqual([
      { id: 'c', label: 'Alpha' },
      { id: 'abcdef1234567', label: 'Workflow abcdef12' },
      { id: 'b', label: 'Zeta' },
    ]);
  });
});
