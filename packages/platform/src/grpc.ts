import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { health } from '@weft/contracts';
import type { Logger } from './logger.js';
import { REQUEST_ID_HEADER, currentRequestContext, withRequestContext } from './context.js';
import { AppError, ERROR_MAP, codeFromGrpcStatus, isErrorCode, toAppError, type ErrorCode } from './errors.js';

/**
 * The largest message a Weft service sends or takes (gRPC's default is 4 MB): run answers carry block
 * outputs, and a run's answer is kept under this (`ANSWER_VALUES_BUDGET_BYTES` in the runner).
 */
export const GRPC_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const SIZE_OPTIONS = { 'grpc.max_receive_message_length': GRPC_MAX_MESSAGE_BYTES, 'grpc.max_send_message_length': GRPC_MAX_MESSAGE_BYTES };

const ERROR_CODE_KEY = 'weft-error-code';
const ERROR_DETAILS_KEY = 'weft-error-details';

/**
 * Metadata key naming the service that makes a call (`registry`, `copilot`, …). Declared by the
 * caller, not authenticated (services talk over plaintext gRPC on a trusted network, docs/architecture.md):
 * it keeps a service from doing by mistake what only another may (the editor takes deployment flags
 * from the registry alone), it is no defence against a hostile process on that network.
 */
export const CALLER_HEADER = 'x-weft-caller';

let processCaller: string | undefined;

/** Names the service this process runs as: every call its clients make from then on carries it (bootService sets it). */
export function setCallingService(name: string): void {
  processCaller = name;
}

/** A unary method entry of a generated service definition. */
interface UnaryMethod<Req, Res> {
  path: string;
  requestStream: false;
  responseStream: false;
  requestSerialize(value: Req): Buffer;
  requestDeserialize(value: Buffer): Req;
  responseSerialize(value: Res): Buffer;
  responseDeserialize(value: Buffer): Res;
}

/** What a handler learns about its call besides the request. */
export interface CallContext {
  requestId: string;
  metadata: grpc.Metadata;
  /** The calling service as it names itself (CALLER_HEADER); undefined when it names none (the gateway, a test). */
  caller?: string | undefined;
  /** Aborted when the caller cancels the call or its deadline passes. */
  signal: AbortSignal;
}

/** The async implementation of a service: one `(request, ctx) => Promise<response>` per method. */
export type ServiceHandlers<D> = {
  [K in keyof D]: D[K] extends UnaryMethod<infer Req, infer Res> ? (request: Req, ctx: CallContext) => Promise<Res> : never;
};

/** The async client of a service: one `(request, options?) => Promise<response>` per method. */
export type ServiceClient<D> = {
  [K in keyof D]: D[K] extends UnaryMethod<infer Req, infer Res> ? (request: Req, options?: CallOptions) => Promise<Res> : never;
};

/** Per call: how long to wait (else the client's default), and a signal that cancels the call (the server's `ctx.signal` learns of it). */
export interface CallOptions {
  deadlineMs?: number;
  signal?: AbortSignal;
}

function isUnary(value: unknown): value is UnaryMethod<unknown, unknown> {
  return typeof value === 'object' && value !== null && 'path' in value && 'requestSerialize' in value;
}

export interface GrpcServer {
  /** Adds a service from its generated definition and async handlers. */
  add<D extends grpc.ServiceDefinition>(definition: D, handlers: ServiceHandlers<D>): void;
  /** Marks a service (or '' for the whole server) SERVING or NOT_SERVING in the health service. */
  setServing(service: string, serving: boolean): void;
  /** Binds and starts; answers the bound port. */
  listen(address: string): Promise<number>;
  shutdown(): Promise<void>;
}

/** A gRPC server with the standard health service, request-id propagation and the one error mapping. */
export function createGrpcServer(logger: Logger): GrpcServer {
  const server = new grpc.Server(SIZE_OPTIONS);
  const statuses = new Map<string, boolean>([['', true]]);
  const healthImpl: ServiceHandlers<typeof health.HealthService> = {
    async check(req) {
      const serving = statuses.get(req.service);
      if (serving === undefined) {
        throw new AppError('not_found', `Unknown service '${req.service}'`);
      }
      return { status: serving ? health.HealthCheckResponse_ServingStatus.SERVING : health.HealthCheckResponse_ServingStatus.NOT_SERVING };
    },
  };

  function add<D extends grpc.ServiceDefinition>(definition: D, handlers: ServiceHandlers<D>): void {
    const impl: grpc.UntypedServiceImplementation = {};
    for (const [name, method] of Object.entries(definition)) {
      if (!isUnary(method)) continue;
      const handler = (handlers as Record<string, (req: unknown, ctx: CallContext) => Promise<unknown>>)[name];
      if (!handler) throw new Error(`No handler for ${method.path}`);
      impl[name] = (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        const requestId = String(call.metadata.get(REQUEST_ID_HEADER)[0] ?? randomUUID());
        const named = call.metadata.get(CALLER_HEADER)[0];
        const caller = typeof named === 'string' && named !== '' ? named : undefined;
        // The caller cancelled or its deadline passed: the handler's signal says so, so it can stop its work.
        const cancelled = new AbortController();
        call.on('cancelled', () => cancelled.abort(new Error('The caller cancelled the call')));
        void withRequestContext({ requestId }, async () => {
          const started = performance.now();
          try {
            const res = await handler(call.request, { requestId, metadata: call.metadata, caller, signal: cancelled.signal });
            logger.debug({ method: method.path, ms: Math.round(performance.now() - started) }, 'grpc call');
            callback(null, res);
          } catch (err) {
            const appErr = toAppError(err);
            if (appErr.code === 'internal') logger.error({ err, method: method.path }, 'grpc call failed');
            else logger.info({ method: method.path, code: appErr.code, error: appErr.message }, 'grpc call refused');
            callback(toServiceError(appErr), null);
          }
        });
      };
    }
    server.addService(definition, impl);
    const serviceName = Object.values(definition).find(isUnary)?.path.split('/')[1];
    if (serviceName) statuses.set(serviceName, true);
  }

  add(health.HealthService, healthImpl);

  return {
    add,
    setServing(service, serving) {
      statuses.set(service, serving);
    },
    listen(address) {
      return new Promise((resolve, reject) => {
        server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port)));
      });
    },
    shutdown() {
      return new Promise((resolve) => {
        const force = setTimeout(() => server.forceShutdown(), 5_000);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
    },
  };
}

/**
 * The longest error message (and details JSON) a service sends. Both travel in the call's trailers,
 * HTTP/2 headers with a size limit: a message that echoes a huge input (a 1 MB id in "Workflow <id>
 * not found") would break the connection and fail every other call on it, so it is cut short.
 */
export const GRPC_MAX_ERROR_CHARS = 2_000;

/** `text` cut to `max` characters with an ellipsis, never in the middle of a surrogate pair. */
function bounded(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}

/**
 * JSON with every character outside printable ASCII written as a `\uXXXX` escape: a metadata value
 * may hold nothing else (grpc-js throws "contains illegal characters" at `é` or `→`), and the escapes
 * parse back to the same text.
 */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function toServiceError(err: AppError): Partial<grpc.StatusObject> {
  const metadata = new grpc.Metadata();
  metadata.set(ERROR_CODE_KEY, err.code);
  // Block names and messages in details (a deploy's problems) may be any text: sent as ASCII.
  const details = Object.keys(err.details).length > 0 ? asciiJson(err.details) : '';
  // Details too large to send are left out rather than cut (cut JSON would not parse).
  if (details && details.length <= GRPC_MAX_ERROR_CHARS) metadata.set(ERROR_DETAILS_KEY, details);
  return { code: ERROR_MAP[err.code].grpc, details: bounded(err.message, GRPC_MAX_ERROR_CHARS), metadata };
}

/** Turns a gRPC failure back into an AppError with the code and details the server raised. */
export function fromServiceError(err: grpc.ServiceError): AppError {
  const raised = err.metadata?.get(ERROR_CODE_KEY)[0];
  const code: ErrorCode = isErrorCode(raised) ? raised : codeFromGrpcStatus(err.code);
  const detailsText = err.metadata?.get(ERROR_DETAILS_KEY)[0];
  const details = typeof detailsText === 'string' ? (JSON.parse(detailsText) as Record<string, unknown>) : {};
  if (raised === undefined) {
    // The transport failed (service down, deadline passed, a message over the size limit): say what
    // happened, not the raw status line. RESOURCE_EXHAUSTED from the transport is not a plan limit.
    if (err.code === grpc.status.RESOURCE_EXHAUSTED) {
      return new AppError('internal', `The answer is larger than the ${GRPC_MAX_MESSAGE_BYTES / 1024 / 1024} MB a service may send`, details);
    }
    const message = code === 'timeout' ? 'The service did not answer in time' : code === 'unavailable' ? 'The service is unavailable' : err.details || 'Internal server error';
    return new AppError(code, message, details);
  }
  return new AppError(code, err.details, details);
}

/**
 * An async client for a generated service definition, with deadlines, request-id propagation and the
 * caller's name (`defaults.caller`, else the process's from setCallingService; none when neither).
 */
export function createServiceClient<D extends grpc.ServiceDefinition>(definition: D, address: string, defaults: { deadlineMs: number; caller?: string }): ServiceClient<D> & { close(): void } {
  const client = new grpc.Client(address, grpc.credentials.createInsecure(), {
    'grpc.keepalive_time_ms': 30_000,
    'grpc.initial_reconnect_backoff_ms': 200,
    'grpc.max_reconnect_backoff_ms': 2_000,
    ...SIZE_OPTIONS,
  });
  const api: Record<string, unknown> = { close: () => client.close() };
  for (const [name, method] of Object.entries(definition)) {
    if (!isUnary(method)) continue;
    api[name] = (request: unknown, options: CallOptions = {}) =>
      new Promise((resolve, reject) => {
        const metadata = new grpc.Metadata();
        metadata.set(REQUEST_ID_HEADER, currentRequestContext()?.requestId ?? randomUUID());
        const caller = defaults.caller ?? processCaller;
        if (caller !== undefined) metadata.set(CALLER_HEADER, caller);
        const deadline = Date.now() + (options.deadlineMs ?? defaults.deadlineMs);
        const { signal } = options;
        const cancel = () => call.cancel();
        const call = client.makeUnaryRequest(
          method.path,
          (v: unknown) => method.requestSerialize(v),
          (b: Buffer) => method.responseDeserialize(b),
          request,
          metadata,
          { deadline },
          (err, res) => {
            signal?.removeEventListener('abort', cancel);
            if (err) reject(fromServiceError(err));
            else resolve(res);
          },
        );
        if (signal?.aborted) cancel();
        else signal?.addEventListener('abort', cancel, { once: true });
      });
  }
  return api as ServiceClient<D> & { close(): void };
}

/** Asks a server's standard health service; answers true only for SERVING. */
export async function checkGrpcHealth(address: string, service = '', deadlineMs = 1_000): Promise<boolean> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  try {
    const res = await new Promise<health.HealthCheckResponse>((resolve, reject) => {
      client.makeUnaryRequest(
        health.HealthService.check.path,
        (v: health.HealthCheckRequest) => health.HealthService.check.requestSerialize(v),
        (b: Buffer) => health.HealthService.check.responseDeserialize(b),
        { service },
        new grpc.Metadata(),
        { deadline: Date.now() + deadlineMs },
        (err, r) => (err || !r ? reject(err ?? new Error('empty answer')) : resolve(r)),
      );
    });
    return res.status === health.HealthCheckResponse_ServingStatus.SERVING;
  } catch {
    return false;
  } finally {
    client.close();
  }
}
