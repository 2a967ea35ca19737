import type { z } from 'zod';
import { AppError } from '@weft/platform';
import { describeIssues } from '@weft/contracts';

/** Parses a request body with its schema; a bad body is a 400 naming the field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new AppError('validation', describeIssues(parsed.error));
  return parsed.data;
}

/** Parses a JSON string a service answered with (the services are trusted; this only types it). */
export function fromJson(text: string): unknown {
  return text ? JSON.parse(text) : null;
}
