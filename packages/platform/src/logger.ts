import { pino, type DestinationStream, type Logger } from 'pino';
import { currentRequestContext } from './context.js';

export type { Logger };

/** Keys that must never reach a log line in clear text. */
const REDACT = ['password', 'apiKey', 'accessToken', 'refreshToken', 'secret', '*.password', '*.apiKey', '*.value', 'headers.authorization', 'headers.cookie'];

/** A pino logger for one service; every line carries the current request id. */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  const options = {
    name: service,
    level,
    redact: { paths: REDACT, censor: '[redacted]' },
    mixin() {
      const ctx = currentRequestContext();
      return ctx ? { requestId: ctx.requestId } : {};
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
