import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { status } from '@grpc/grpc-js';
import { integrations } from '@weft/contracts';
import { checkGrpcHealth, createGrpcServer, createServiceClient, GRPC_MAX_ERROR_CHARS, GRPC_MAX_MESSAGE_BYTES, type GrpcServer } from './grpc.js';
import { AppError, ERROR_MAP, type ErrorCode } from './errors.js';
import { currentRequestId, withRequestContext } from './context.js';
import { createLogger } from './logger.js';

const CODES: ErrorCode[] = ['validation', 'not_found', 'conflict', 'forbidden', 'unauthenticated', 'limit', 'unavailable', 'timeout', 'internal'];

describe('gRPC helpers over loopback', () => {
  let server: GrpcServer;
  let address: string;
  let client: ReturnType<typeof createServiceClient<typeof integrations.IntegrationsServiceService>>;
  const waiting = new Set<string>();
  const stopped = new Set<string>();

  beforeAll(async () => {
    server = createGrpcServer(createLogger('test', 'silent'));
    // A test service: `code` says what the handler does.
    server.add(integrations.IntegrationsServiceService, {
      async executeFunction(req, ctx) {
        const [action, arg] = req.code.split(':');
        if (action === 'wait') {
          // Held until the caller goes away; the handler's signal says when.
          waiting.add(arg ?? '');
          await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
          stopped.add(arg ?? '');
          return { success: true, resultJson: '"stopped"', stdout: '', error: undefined };
        }
        if (action === 'echoHuge') throw new AppError('not_found', `Workflow ${'x'.repeat(Number(arg))} not found`, { id: 'y'.repeat(Number(arg)) });
        if (action === 'raiseText') throw new AppError('validation', 'Résumé (edges): Fetch → Parse → Fetch 😀', { problems: [{ blockName: 'Résumé', message: 'Reference <résumé.x> names no block; Fetch → Parse 😀' }] });
        if (action === 'raise') throw new AppError(arg as ErrorCode, `raised ${arg}`, arg === 'conflict' ? { currentVersion: 7 } : {});
        if (action === 'crash') throw new TypeError('secret internals');
        if (action === 'sleep') await new Promise((r) => setTimeout(r, Number(arg)));
        if (action === 'caller') return { success: true, resultJson: JSON.stringify(ctx.caller ?? null), stdout: '', error: undefined };
        if (action === 'big') return { success: true, resultJson: 'x'.repeat(Number(arg)), stdout: '', error: undefined };
        return { success: true, resultJson: JSON.stringify(currentRequestId()), stdout: '', error: undefined };
      },
      async executeTool() {
        throw new AppError('internal', 'not part of this test');
      },
      async callRoute() {
        throw new AppError('internal', 'not part of this test');
      },
    });
    const port = await server.listen('127.0.0.1:0');
    address = `127.0.0.1:${port}`;
    // A deadline for calls that must answer, generous for a loaded machine; the deadline tests pass their own.
    client = createServiceClient(integrations.IntegrationsServiceService, address, { deadlineMs: 30_000 });
  });

  afterAll(async () => {
    client?.close();
    await server?.shutdown();
  });

  const call = (code: string, deadlineMs?: number) => client.executeFunction(integrations.ExecuteFunctionRequest.fromPartial({ code }), deadlineMs ? { deadlineMs } : {});

  it("tells the handler the calling service a client names (x-weft-caller), and none when it names none", async () => {
    expect((await call('caller')).resultJson).toBe('null');
    const named = createServiceClient(integrations.IntegrationsServiceService, address, { deadlineMs: 30_000, caller: 'registry' });
    try {
      const out = await named.executeFunction(integrations.ExecuteFunctionRequest.fromPartial({ code: 'caller' }));
      expect(out.resultJson).toBe('"registry"');
    } finally {
      named.close();
    }
  });

  it.each(CODES)('maps %s to its gRPC status and back, with message and details', async (code) => {
    const err = await call(`raise:${code}`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code, message: `raised ${code}` });
    if (code === 'conflict') expect((err as AppError).details).toEqual({ currentVersion: 7 });
  });

  it('sends a message and details holding any text (é, →, an emoji) as they are, and keeps serving', async () => {
    const err = await call('raiseText').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({
      code: 'validation',
      message: 'Résumé (edges): Fetch → Parse → Fetch 😀',
      details: { problems: [{ blockName: 'Résumé', message: 'Reference <résumé.x> names no block; Fetch → Parse 😀' }] },
    });
    expect(JSON.parse((await call('id')).resultJson)).toBeTypeOf('string');
  });

  it('cuts an error message that echoes a huge input short, and the connection keeps serving other calls', async () => {
    const slow = call('sleep:300');
    const err = await call('echoHuge:1000000').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'not_found', details: {} });
    const { message } = err as AppError;
    expect(message.startsWith('Workflow xxx')).toBe(true);
    expect(message.length).toBe(GRPC_MAX_ERROR_CHARS + 1);
    expect(message.endsWith('…')).toBe(true);
    // The call in flight beside it on the same connection still answers.
    expect((await slow).success).toBe(true);
    // Details small enough still travel.
    expect(await call('echoHuge:10').catch((e: unknown) => e)).toMatchObject({ details: { id: 'yyyyyyyyyy' } });
  });

  it("tells the handler when the caller cancels (a signal) or the call's deadline passes", async () => {
    const caller = new AbortController();
    const cancelled = client.executeFunction(integrations.ExecuteFunctionRequest.fromPartial({ code: 'wait:a' }), { deadlineMs: 60_000, signal: caller.signal }).catch((e: unknown) => e);
    await expect.poll(() => waiting.has('a')).toBe(true);
    expect(stopped.has('a')).toBe(false);
    caller.abort();
    expect(await cancelled).toBeInstanceOf(AppError);
    await expect.poll(() => stopped.has('a')).toBe(true);

    const timedOut = await call('wait:b', 300).catch((e: unknown) => e);
    expect(timedOut).toMatchObject({ code: 'timeout' });
    await expect.poll(() => stopped.has('b')).toBe(true);

    // A signal aborted before the call: cancelled at once.
    const gone = AbortSignal.abort();
    expect(await client.executeFunction(integrations.ExecuteFunctionRequest.fromPartial({ code: 'wait:c' }), { signal: gone }).catch((e: unknown) => e)).toBeInstanceOf(AppError);
  });

  it('has one table from code to gRPC status to HTTP status', () => {
    expect(Object.fromEntries(CODES.map((c) => [c, [ERROR_MAP[c].grpc, ERROR_MAP[c].http]]))).toEqual({
      validation: [status.INVALID_ARGUMENT, 400],
      not_found: [status.NOT_FOUND, 404],
      conflict: [status.ABORTED, 409],
      forbidden: [status.PERMISSION_DENIED, 403],
      unauthenticated: [status.UNAUTHENTICATED, 401],
      limit: [status.RESOURCE_EXHAUSTED, 403],
      unavailable: [status.UNAVAILABLE, 503],
      timeout: [status.DEADLINE_EXCEEDED, 504],
      internal: [status.INTERNAL, 500],
    });
  });

  it('hides the message of an unexpected error', async () => {
    await expect(call('crash')).rejects.toMatchObject({ code: 'internal', message: 'Internal server error' });
  });

  it('turns a passed deadline into a timeout', async () => {
    await expect(call('sleep:500', 100)).rejects.toMatchObject({ code: 'timeout', message: 'The service did not answer in time' });
  });

  it('carries answers up to 64 MB; a larger one fails as internal with a message, never as a plan limit', async () => {
    const MB = 1024 * 1024;
    expect((await call(`big:${20 * MB}`, 30_000)).resultJson).toHaveLength(20 * MB);
    await expect(call(`big:${GRPC_MAX_MESSAGE_BYTES + MB}`, 30_000)).rejects.toMatchObject({ code: 'internal', message: 'The answer is larger than the 64 MB a service may send' });
  });

  it('carries the request id to the server', async () => {
    const res = await withRequestContext({ requestId: 'req-123' }, () => call('echo'));
    expect(JSON.parse(res.resultJson)).toBe('req-123');
  });

  it('reports an unreachable service as unavailable', async () => {
    const dead = createServiceClient(integrations.IntegrationsServiceService, '127.0.0.1:1', { deadlineMs: 1_000 });
    await expect(dead.executeFunction(integrations.ExecuteFunctionRequest.fromPartial({}))).rejects.toMatchObject({ code: expect.stringMatching(/unavailable|timeout/) });
    dead.close();
  });

  it('serves the standard health service', async () => {
    // The check's own 1 s deadline is for probes polled in a loop; a single check here must not fail on a stall.
    expect(await checkGrpcHealth(address, '', 30_000)).toBe(true);
    expect(await checkGrpcHealth(address, 'weft.integrations.v1.IntegrationsService', 30_000)).toBe(true);
    server.setServing('weft.integrations.v1.IntegrationsService', false);
    expect(await checkGrpcHealth(address, 'weft.integrations.v1.IntegrationsService', 30_000)).toBe(false);
    expect(await checkGrpcHealth('127.0.0.1:1')).toBe(false);
  });
});
