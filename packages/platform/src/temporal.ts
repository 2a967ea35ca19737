import type { Logger } from './logger.js';

/** The gRPC health service name a Temporal frontend answers for. */
export const TEMPORAL_HEALTH_SERVICE = 'temporal.api.workflowservice.v1.WorkflowService';

type TemporalLevel = 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
const RANK: Record<TemporalLevel, number> = { TRACE: 0, DEBUG: 1, INFO: 2, WARN: 3, ERROR: 4 };

/**
 * A logger with the shape Temporal's Runtime takes, writing into pino at `minLevel` and above
 * (the SDK's INFO lines about bundling and worker states are noise in a service log).
 */
export function temporalLogger(logger: Logger, minLevel: TemporalLevel = 'WARN') {
  const log = (level: TemporalLevel, message: string, meta?: Record<string, unknown>) => {
    if (RANK[level] < RANK[minLevel]) return;
    const fields = { temporal: meta ?? {} };
    if (level === 'ERROR') logger.error(fields, message);
    else if (level === 'WARN') logger.warn(fields, message);
    else if (level === 'INFO') logger.info(fields, message);
    else logger.debug(fields, message);
  };
  return {
    log,
    trace: (m: string, meta?: Record<string, unknown>) => log('TRACE', m, meta),
    debug: (m: string, meta?: Record<string, unknown>) => log('DEBUG', m, meta),
    info: (m: string, meta?: Record<string, unknown>) => log('INFO', m, meta),
    warn: (m: string, meta?: Record<string, unknown>) => log('WARN', m, meta),
    error: (m: string, meta?: Record<string, unknown>) => log('ERROR', m, meta),
  };
}
