import type { Request, Response } from 'express';
import { AppError } from '@weft/platform';
import type { integrations } from '@weft/contracts';
import type { Clients } from '../clients.js';
import type { Actor } from '../auth.js';

/** A request's query parameters as text; one given more than once is a 400 naming it (which value counts is not ours to guess). */
export function stringQuery(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.query)) {
    if (typeof value !== 'string') throw new AppError('validation', `Query parameter ${name} must be given once`);
    out[name] = value;
  }
  return out;
}

/**
 * What a fetched file may do when a browser opens it from our origin (the image proxy answers
 * whatever image an outside URL gives, an SVG with scripts included): nothing — no scripts, no
 * requests, its type as sent.
 */
export const FETCHED_CONTENT_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * A signal aborted when the HTTP caller goes away before its answer was sent: passed to the gRPC call
 * that does the work, it cancels that call, and the integrations service stops the function, tool or
 * route it was running (its outbound requests closed, its sandbox thread ended).
 */
export function untilCallerLeaves(res: Response): AbortSignal {
  const left = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) left.abort(new Error('The caller went away'));
  });
  return left.signal;
}

/** Sends an internal route's answer as its HTTP route would. */
export function sendRoute(res: Response, answer: integrations.CallRouteResponse): void {
  res.status(answer.status || 200);
  if (answer.body && answer.body.length > 0) {
    res.set({ 'Content-Security-Policy': FETCHED_CONTENT_POLICY, 'X-Content-Type-Options': 'nosniff' });
    res.type(answer.contentType || 'application/octet-stream').send(Buffer.from(answer.body));
    return;
  }
  res.type('application/json').send(answer.bodyJson || 'null');
}

/** The caller's environment variables (custom tools substitute `{{KEY}}` from them; knowledge bases embed with their OPENAI_API_KEY). */
export async function environmentOf(clients: Clients, actor: Actor): Promise<Record<string, string>> {
  return (await clients.registry.getEnvironment({ actor })).variables;
}
