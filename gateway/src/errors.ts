import type { ErrorRequestHandler } from 'express';
import { ERROR_MAP, toAppError, type Logger } from '@weft/platform';

/** The one HTTP error mapping: AppError code → status, body `{error, ...details}`. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, _req, res, _next) => {
    if (isBodyParseError(err)) {
      res.status(400).json({ error: 'Request body must be valid JSON' });
      return;
    }
    const appErr = toAppError(err);
    if (appErr.code === 'internal') logger.error({ err }, 'request failed');
    res.status(ERROR_MAP[appErr.code].http).json({ error: appErr.message, ...appErr.details });
  };
}

function isBodyParseError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { type?: unknown }).type === 'entity.parse.failed';
}
