import { z } from 'zod';

/** Request bodies of the /api surface, validated at the gateway. */
export const createWorkflowBody = z.object({
  workspaceId: z.string().max(200).optional(),
  name: z.string().max(200).optional(),
  description: z.string().max(2000).optional(),
  color: z.string().max(200).optional(),
  folderId: z.string().max(200).nullable().optional(),
});

export const commandsBody = z.object({
  commands: z.array(z.unknown()).min(1, 'commands must hold at least one command'),
  expectedVersion: z.number().int().nonnegative().optional(),
  commandId: z.string().min(1).max(200).optional(),
});

export const executeBody = z.object({
  input: z.unknown().optional(),
});

/** The 401 message for an API key that names no one: a wrong deployment key (registry) and an unknown personal key (gateway) read the same. */
export const INVALID_API_KEY = 'Invalid API key';

/** Whether `message` opens with `name` as a whole word (any case): "ref is required" opens with "ref", "references …" does not. */
function opensWith(message: string, name: string): boolean {
  return message.slice(0, name.length).toLowerCase() === name.toLowerCase() && !/^[\w$]/.test(message.slice(name.length));
}

/**
 * One issue as the line the caller reads: the field's path, then the message ("blocks.a.type: Invalid
 * option"). A message that already opens with the field's name is not prefixed with it again:
 * "deployedAt must be an ISO date" stays as it is instead of "deployedAt: deployedAt must …"; a nested
 * one keeps the path of its parent ("blocks.a: name is required"), so the field is still found.
 */
function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String);
  const name = path.at(-1);
  if (name === undefined) return issue.message;
  const whole = path.join('.');
  // Only a property name is a word a message opens with: "1 character at least" of item 1 is no name.
  if (issue.path.some((part) => typeof part === 'string') && opensWith(issue.message, whole)) return issue.message;
  if (typeof issue.path.at(-1) === 'string' && opensWith(issue.message, name)) return path.length > 1 ? `${path.slice(0, -1).join('.')}: ${issue.message}` : issue.message;
  return `${whole}: ${issue.message}`;
}

/** One line naming each field that failed, e.g. "status: must be one of running, …; ref is required". */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map(describeIssue).join('; ');
}
