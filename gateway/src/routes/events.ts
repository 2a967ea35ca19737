import { Router, type Request, type Response } from 'express';
import { AppError, toAppError } from '@weft/platform';
import type { Clients } from '../clients.js';
import { requireActor, type Actor, type Authenticator } from '../auth.js';
import type { AccessChecker } from '../access.js';
import { FLAG_EVENT_TEXT, carriesDeploymentFlags, eventsWithDeploymentFlags } from './deploymentFlags.js';

/** How long one editor ReadEvents call waits for a new event before the stream sends a keep-alive. */
const POLL_WAIT_MS = 15_000;
const JSON_PAGE_LIMIT = 1_000;

/**
 * Where to resume: the Last-Event-ID an EventSource sends when it reconnects, else `?after=`. The header wins
 * because a reconnecting EventSource keeps its first URL, so `after` would replay what the client already has.
 */
function afterOf(req: Request): number {
  const lastEventId = req.header('last-event-id');
  if (lastEventId !== undefined && lastEventId !== '') return position('Last-Event-ID', lastEventId);
  const after = req.query.after;
  if (after !== undefined && typeof after !== 'string') throw new AppError('validation', 'after must be a non-negative integer, given once');
  return after !== undefined && after !== '' ? position('after', after) : 0;
}

/** An event version given as text; `name` says where it came from in the 400 answer. */
function position(name: string, given: string): number {
  const version = Number(given);
  if (!Number.isSafeInteger(version) || version < 0) throw new AppError('validation', `${name} must be a non-negative integer`);
  return version;
}

/**
 * A page of editor events (their JSON) as the client gets it: events carrying deployment flags carry
 * the registry's (read when the page has one), as GET /state does. Pages without one pass as they are.
 */
async function withRegistryFlags(clients: Clients, actor: Actor, workflowId: string, eventsJson: string): Promise<string> {
  // Most pages have none: a look at the text spares parsing them (a match inside a value only costs the parse).
  if (!FLAG_EVENT_TEXT.test(eventsJson)) return eventsJson;
  const events = JSON.parse(eventsJson) as unknown[];
  if (!events.some(carriesDeploymentFlags)) return eventsJson;
  const { workflow } = await clients.registry.getWorkflow({ actor, workflowId, access: 'read' });
  if (!workflow) throw new AppError('not_found', `Workflow ${workflowId} not found`);
  return JSON.stringify(eventsWithDeploymentFlags(events, workflow));
}

/** Relays events to one SSE client: replays from `after`, then long-polls the editor for new ones. */
async function streamEvents(clients: Clients, actor: Actor, workflowId: string, after: number, res: Response): Promise<void> {
  res.status(200).set({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  res.flushHeaders();
  res.write('retry: 2000\n\n');
  let open = true;
  res.on('close', () => {
    open = false;
  });
  let cursor = after;
  while (open) {
    let eventsJson;
    try {
      const page = await clients.editor.readEvents({ workflowId, after: cursor, waitMs: POLL_WAIT_MS, limit: 0 }, { deadlineMs: POLL_WAIT_MS + 5_000 });
      eventsJson = await withRegistryFlags(clients, actor, workflowId, page.eventsJson);
    } catch (err) {
      if (open) res.end(`event: error\ndata: ${JSON.stringify({ error: toAppError(err).message })}\n\n`);
      return;
    }
    if (!open) return;
    const events = JSON.parse(eventsJson) as Array<{ version: number }>;
    if (events.length === 0) res.write(': keep-alive\n\n');
    for (const event of events) res.write(`id: ${event.version}\ndata: ${JSON.stringify(event)}\n\n`);
    cursor = events.at(-1)?.version ?? cursor;
  }
}

/** GET /api/workflows/{id}/events: a page of events as JSON, or a live Server-Sent Events stream. */
export function eventRoutes(clients: Clients, auth: Authenticator, access: AccessChecker): Router {
  const r = Router();
  r.get('/workflows/:id/events', async (req, res) => {
    const actor = await requireActor(auth, req);
    const workflowId = req.params.id;
    const after = afterOf(req);
    await access.require(actor, workflowId, 'read');
    if (req.accepts(['application/json', 'text/event-stream']) === 'text/event-stream') {
      await streamEvents(clients, actor, workflowId, after, res);
      return;
    }
    const page = await clients.editor.readEvents({ workflowId, after, waitMs: 0, limit: JSON_PAGE_LIMIT });
    res.type('json').send(`{"events":${await withRegistryFlags(clients, actor, workflowId, page.eventsJson)},"version":${page.version}}`);
  });
  return r;
}
