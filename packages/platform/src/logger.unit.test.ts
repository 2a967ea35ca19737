import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import { withRequestContext } from './context.js';

describe('logger', () => {
  it('adds the request id and redacts secrets', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const logger = createLogger('test', 'info', sink);
    withRequestContext({ requestId: 'req-9' }, () => logger.info({ apiKey: 'sk-live', user: { password: 'pw' } }, 'hello'));
    const line = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
    expect(line.requestId).toBe('req-9');
    expect(line.apiKey).toBe('[redacted]');
    expect(line.user).toEqual({ password: '[redacted]' });
  });
});
