import type { z } from 'zod';
import { AppError } from '@weft/platform';
import { describeIssues } from '@weft/contracts';

/** The 400 for a body that is JSON but no object (an array, a string, a number). */
export const NOT_A_JSON_OBJECT = 'Request body must be a JSON object';

/** The largest request body the /api surface reads (JSON or the raw body of a run's input); more is a 413. */
export const BODY_LIMIT = '5mb';

/** Parses a request body with its schema; a bad body is a 400 naming the field (or the body, when it is no object). */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new AppError('validation', describeBodyIssues(parsed.error));
  return parsed.data;
}

/** A bad body's issues as one line naming each field; a body that is no object (an array) is named as the body. */
export function describeBodyIssues(error: z.ZodError): string {
  if (error.issues.some((i) => i.path.length === 0 && i.code === 'invalid_type')) return NOT_A_JSON_OBJECT;
  return describeIssues(error);
}

/** Parses a JSON string a service answered with (the services are trusted; this only types it). */
export function fromJson(text: string): unknown {
  return text ? JSON.parse(text) : null;
}
