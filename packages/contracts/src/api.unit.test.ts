import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commandsBody, describeIssues } from './api.js';

/** The message a schema's refusal of `value` reads as. */
function refusal(schema: z.ZodType, value: unknown): string {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error(`accepted ${JSON.stringify(value)}`);
  return describeIssues(parsed.error);
}

describe('describeIssues: each refused field named once', () => {
  it('does not prefix a message that already opens with its field', () => {
    // The gateway's own schemas of these fields (registryDeployments.ts, executions.ts).
    const deploy = z.object({ deployedAt: z.iso.datetime({ offset: true, message: 'deployedAt must be an ISO date' }).optional() });
    const webhook = z.object({ hasActiveWebhook: z.boolean('hasActiveWebhook must be true or false') });
    const value = z.object({ ref: z.string({ error: 'ref is required' }).min(1, 'ref is required') });
    expect(refusal(deploy, { deployedAt: 'yesterday' })).toBe('deployedAt must be an ISO date');
    expect(refusal(webhook, { hasActiveWebhook: 'yes' })).toBe('hasActiveWebhook must be true or false');
    expect(refusal(value, {})).toBe('ref is required');
    expect(refusal(value, { ref: '' })).toBe('ref is required');
    expect(refusal(commandsBody, { commands: [] })).toBe('commands must hold at least one command');
  });

  it('keeps the path before a message that does not name the field', () => {
    const blocks = z.object({ blocks: z.record(z.string(), z.object({ type: z.enum(['agent', 'function']) })) });
    expect(refusal(blocks, { blocks: { a: { type: 'nope' } } })).toBe('blocks.a.type: Invalid option: expected one of "agent"|"function"');
    const status = z.object({ status: z.enum(['running', 'failed'], { error: 'must be one of running, failed' }) });
    expect(refusal(status, { status: 'x' })).toBe('status: must be one of running, failed');
    // A word that only begins with the field's name is not the name: "references" is no "ref".
    expect(refusal(z.object({ ref: z.string('references must be text') }), { ref: 1 })).toBe('ref: references must be text');
    // An array index is no word: item 1's "1 character at least" still names the item.
    expect(refusal(z.array(z.string().min(1, '1 character at least')), ['a', ''])).toBe('1: 1 character at least');
  });

  it('names a nested field by its parent when the message opens with the field, or the whole path when it opens with that', () => {
    const options = z.object({ options: z.object({ timeout: z.number('timeout must be a number'), retries: z.number('options.retries must be a number') }) });
    expect(refusal(options, { options: { timeout: 'soon', retries: 2 } })).toBe('options: timeout must be a number');
    expect(refusal(options, { options: { timeout: 1, retries: 'two' } })).toBe('options.retries must be a number');
    // Any case: a message opening with "Name" names the field name.
    expect(refusal(z.object({ name: z.string('Name is required') }), {})).toBe('Name is required');
  });

  it('joins several issues with "; " and leaves a message with no path as it is', () => {
    const two = z.object({ ref: z.string('ref is required'), limit: z.number('must be a number') });
    expect(refusal(two, {})).toBe('ref is required; limit: must be a number');
    expect(refusal(z.string('Request body must be text'), 1)).toBe('Request body must be text');
  });
});
