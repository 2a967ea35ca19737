import type { ErrorRequestHandler } from 'express';
import { ERROR_MAP, isCodedError, toAppError, type Logger } from '@weft/platform';
import { NOT_A_JSON_OBJECT } from './validate.js';

/** The one HTTP error mapping: AppError code → status, body `{error, ...details}`. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, _req, res, _next) => {
    const refused = requestRefusal(err);
    if (refused) {
      res.status(refused.status).json({ error: refused.message });
      return;
    }
    const appErr = toAppError(err);
    if (appErr.code === 'internal') logger.error({ err }, 'request failed');
    res.status(ERROR_MAP[appErr.code].http).json({ error: appErr.message, ...appErr.details });
  };
}

/**
 * A request Express or its body parser refused before any route ran (a 4xx they raise with
 * `status`): a body that is not JSON, too large or in an unknown charset, a path with a malformed
 * percent escape. Answered with their status and a message naming what is wrong, never a 500.
 */
function requestRefusal(err: unknown): { status: number; message: string } | undefined {
  // Thrown by our own check inside a parser (verifyUtf8), which stamped it 403: its code answers.
  if (typeof err !== 'object' || err === null || isCodedError(err)) return undefined;
  const { status, type, message, body } = err as { status?: unknown; type?: unknown; message?: unknown; body?: unknown };
  if (typeof status !== 'number' || status < 400 || status > 499) return undefined;
  if (type === 'entity.parse.failed') return { status: 400, message: parsesAsJson(body) ? NOT_A_JSON_OBJECT : 'Request body must be valid JSON' };
  if (type === 'entity.too.large') return { status: 413, message: 'Request body is too large' };
  if (err instanceof URIError) return { status: 400, message: `The path is not valid: ${typeof message === 'string' ? message : 'a malformed percent escape'}` };
  return { status, message: typeof message === 'string' && message ? `Request refused: ${message}` : 'Request refused' };
}

/** Whether the body the JSON parser refused is JSON all the same (null, a string or a number: refused as not an object). */
function parsesAsJson(body: unknown): boolean {
  if (typeof body !== 'string') return false;
  try {
    JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}
