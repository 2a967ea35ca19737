import type { Logger } from './logger.js';

/**
 * Runs `closers` in reverse order on SIGTERM or SIGINT (last opened, first closed), then exits.
 * A second signal or a close that hangs past `timeoutMs` exits at once.
 */
export function onShutdown(logger: Logger, closers: Array<() => Promise<void>>, timeoutMs = 10_000): void {
  let closing = false;
  const handler = (signal: NodeJS.Signals) => {
    if (closing) process.exit(1);
    closing = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, timeoutMs);
    force.unref();
    void (async () => {
      let failed = false;
      for (const close of [...closers].reverse()) {
        try {
          await close();
        } catch (err) {
          failed = true;
          logger.error({ err }, 'a resource failed to close');
        }
      }
      process.exit(failed ? 1 : 0);
    })();
  };
  process.once('SIGTERM', handler);
  process.once('SIGINT', handler);
}
