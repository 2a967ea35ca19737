import { describe, expect, it } from 'vitest';
import { status } from '@grpc/grpc-js';
import { AppError, codeFromGrpcStatus, isCodedError, toAppError } from './errors.js';

describe('errors', () => {
  it('keeps coded errors from domain packages', () => {
    class DomainError extends Error {
      readonly code = 'not_found' as const;
    }
    const e = toAppError(new DomainError('Block b1 not found'));
    expect(e).toBeInstanceOf(AppError);
    expect(e).toMatchObject({ code: 'not_found', message: 'Block b1 not found' });
  });

  it('turns anything else into a generic internal error', () => {
    expect(toAppError(new Error('db password is hunter2'))).toMatchObject({ code: 'internal', message: 'Internal server error' });
    expect(toAppError('a string')).toMatchObject({ code: 'internal' });
    const pgLike = Object.assign(new Error('duplicate key'), { code: '23505' });
    expect(isCodedError(pgLike)).toBe(false);
  });

  it("answers Postgres's refusal of text it cannot store (NUL, bytes not UTF-8) as a validation error, other database errors as internal", () => {
    for (const code of ['22021', '22P05']) {
      const refused = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code });
      expect(toAppError(refused)).toMatchObject({ code: 'validation', message: expect.stringContaining('NUL character (U+0000)') });
    }
    expect(toAppError(Object.assign(new Error('duplicate key'), { code: '23505' }))).toMatchObject({ code: 'internal', message: 'Internal server error' });
  });

  it('maps transport statuses to codes', () => {
    expect(codeFromGrpcStatus(status.DEADLINE_EXCEEDED)).toBe('timeout');
    expect(codeFromGrpcStatus(status.UNAVAILABLE)).toBe('unavailable');
    expect(codeFromGrpcStatus(status.FAILED_PRECONDITION)).toBe('conflict');
    expect(codeFromGrpcStatus(status.UNKNOWN)).toBe('internal');
  });
});
