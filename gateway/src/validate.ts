import type { z } from 'zod';
import { AppError } from '@weft/platform';
import { describeIssues } from '@weft/contracts';

/** Parses a request body with its schema; a bad body is a 400 naming the field (or the body, when it is no object). */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new AppError('validation', describeBodyIssues(parsed.error));
  return parsed.data;
}

/** A bad body's issues as one line naming each field; a body that is no object (an array) is named as the body. */
export function describeBodyIssues(error: z.ZodError): string {
  if (error.issues.some((i) => i.path.length === 0 && i.code === 'invalid_type')) return 'Request body must be a JSON object';
  return describeIssues(error);
}

/** Parses a JSON string a service answered with (the services are trusted; this only types it). */
export function fromJson(text: string): unknown {
  return text ? JSON.parse(text) : null;
}
