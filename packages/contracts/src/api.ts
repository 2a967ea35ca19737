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

/** One line naming each field that failed, e.g. "commands: commands must hold at least one command". */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}
