import { status as GrpcStatus } from '@grpc/grpc-js';

/** The error codes every part of Weft speaks (STYLE.md: domain errors carry one of these). */
export type ErrorCode =
  | 'validation'
  | 'not_found'
  | 'conflict'
  | 'forbidden'
  | 'unauthenticated'
  | 'limit'
  | 'unavailable'
  | 'timeout'
  | 'internal';

const CODES: readonly ErrorCode[] = ['validation', 'not_found', 'conflict', 'forbidden', 'unauthenticated', 'limit', 'unavailable', 'timeout', 'internal'];

/** An error with a code and a user-facing message; `details` travel to the HTTP body. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** True for any error that carries one of our codes (domain packages define their own classes). */
export function isCodedError(err: unknown): err is Error & { code: ErrorCode; details?: Record<string, unknown> } {
  return err instanceof Error && 'code' in err && isErrorCode(err.code);
}

/** True when `value` is one of the error codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (CODES as readonly string[]).includes(value);
}

/** The one mapping: error code → gRPC status → HTTP status. */
export const ERROR_MAP: Record<ErrorCode, { grpc: GrpcStatus; http: number }> = {
  validation: { grpc: GrpcStatus.INVALID_ARGUMENT, http: 400 },
  not_found: { grpc: GrpcStatus.NOT_FOUND, http: 404 },
  conflict: { grpc: GrpcStatus.ABORTED, http: 409 },
  forbidden: { grpc: GrpcStatus.PERMISSION_DENIED, http: 403 },
  unauthenticated: { grpc: GrpcStatus.UNAUTHENTICATED, http: 401 },
  // Plan limits answer 403 with upgradeRequired (spec 000 §8).
  limit: { grpc: GrpcStatus.RESOURCE_EXHAUSTED, http: 403 },
  unavailable: { grpc: GrpcStatus.UNAVAILABLE, http: 503 },
  timeout: { grpc: GrpcStatus.DEADLINE_EXCEEDED, http: 504 },
  internal: { grpc: GrpcStatus.INTERNAL, http: 500 },
};

/** gRPC status → error code, for statuses raised by the transport rather than by our code. */
export function codeFromGrpcStatus(status: GrpcStatus): ErrorCode {
  for (const code of CODES) if (ERROR_MAP[code].grpc === status) return code;
  if (status === GrpcStatus.FAILED_PRECONDITION) return 'conflict';
  if (status === GrpcStatus.ALREADY_EXISTS) return 'conflict';
  if (status === GrpcStatus.CANCELLED) return 'unavailable';
  return 'internal';
}

/**
 * Postgres's SQLSTATEs for text it cannot store: 22021 (a byte sequence invalid in UTF-8, the NUL byte
 * among them) and 22P05 (`\u0000` in JSON). The gateway refuses such input naming the field; this is
 * the backstop for any that reaches a database all the same.
 */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);

/** The 400 message for text Postgres refused (no field to name: the database does not say which). */
const UNSTORABLE_TEXT_MESSAGE = 'The request holds text that cannot be stored: the NUL character (U+0000) or characters that are not valid UTF-8';

/** Any thrown value as an AppError; unknown errors become 'internal' with a generic message. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isCodedError(err)) return new AppError(err.code, err.message, err.details ?? {});
  if (err instanceof Error && 'code' in err && typeof err.code === 'string' && UNSTORABLE_TEXT.has(err.code)) return new AppError('validation', UNSTORABLE_TEXT_MESSAGE);
  return new AppError('internal', 'Internal server error');
}
