import { describe, expect, it } from 'vitest';
import { modeOf } from './executions.js';

/** A request carrying these headers (names lower-case, as Express reads them). */
function request(headers: Record<string, string>) {
  return { header: (name: string): string | undefined => headers[name.toLowerCase()] };
}

describe('modeOf: how a run request wants its answer', () => {
  it('reads x-execution-mode in any case', () => {
    for (const value of ['async', 'ASYNC', 'Async', ' async ']) expect(modeOf(request({ 'x-execution-mode': value }), {})).toBe('async');
    for (const value of ['sync', 'SYNC', 'Sync', '']) expect(modeOf(request({ 'x-execution-mode': value }), {})).toBe('sync');
    // async wins over a stream asked for in the body or by Accept, whatever its case.
    expect(modeOf(request({ 'x-execution-mode': 'ASYNC', accept: 'text/event-stream' }), { stream: true })).toBe('async');
    expect(modeOf(request({ 'x-execution-mode': 'SYNC', accept: 'text/event-stream' }), {})).toBe('stream');
  });

  it('answers JSON without the header, SSE when Accept or the body asks for it', () => {
    expect(modeOf(request({}), { a: 1 })).toBe('sync');
    expect(modeOf(request({ accept: 'text/event-stream' }), {})).toBe('stream');
    expect(modeOf(request({}), { stream: true })).toBe('stream');
  });

  it('refuses a mode it does not know, quoting it as sent', () => {
    expect(() => modeOf(request({ 'x-execution-mode': 'LATER' }), {})).toThrow('x-execution-mode: must be "sync" or "async", got "LATER"');
    expect(() => modeOf(request({}), { stream: 'true' })).toThrow('stream: must be true or false');
  });
});
