import { randomUUID } from 'node:crypto';
import { Router, type Response } from 'express';
import type { Subscription } from 'nats';
import { z } from 'zod';
import { copilotTurnSubject, runChunksSubject, type CopilotStreamEvent, type CopilotTurnEvent, type CopilotTurnOutcome, type RunStreamChunk } from '@weft/contracts';
import { AppError, toAppError } from '@weft/platform';
import type { Clients } from '../clients.js';
import { requireActor, type Authenticator } from '../auth.js';
import { fromJson, parseBody } from '../validate.js';
import type { AccessChecker } from '../access.js';
import type { ExecutionLive } from './executions.js';
import { stringQuery } from './internalCall.js';

/** How long a chat request waits for its turn (model rounds and tools) before it answers an error. */
const TURN_WAIT_MS = 10 * 60_000;
/** A comment line now and then keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000;

const chatBody = z.object({
  message: z.string({ error: 'message is required' }).trim().min(1, 'message is required'),
  workflowId: z.string({ error: 'workflowId is required' }).min(1, 'workflowId is required'),
  chatId: z.string().min(1).optional(),
  provider: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  /** Show edits as a diff to accept or reject instead of applying them. */
  propose: z.boolean().optional(),
});

const proposalBody = z.object({ action: z.enum(['accept', 'reject'], { error: "action must be 'accept' or 'reject'" }) });

function send(res: Response, data: unknown): void {
  res.write(`data: ${JSON.stringify(data)}\n\n`);
}

/** Parses a bus message; a malformed one is dropped (the turn's `done` carries the whole answer). */
function parsed<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/** A model token or a tool state published by the model layer, as the chat stream shows it. */
function fromChunk(chunk: RunStreamChunk): unknown {
  if (chunk.toolCall) return { type: 'tool_call', toolCallId: chunk.toolCall.id, toolName: chunk.toolCall.name, state: chunk.toolCall.state };
  return { type: 'content', data: chunk.chunk };
}

/** The stream's last event from the turn's result: `cancelled` when the user stopped it, else `done`. */
function endEvent(turnId: string, resultJson: string): CopilotStreamEvent {
  const { stopped, ...outcome } = fromJson(resultJson) as CopilotTurnOutcome & { stopped?: boolean };
  return stopped ? { type: 'cancelled', turnId, ...outcome } : { type: 'done', ...outcome };
}

function fromTurnEvent(event: CopilotTurnEvent): unknown {
  if (event.type === 'tool_call') {
    const { id, name, type, ...rest } = event;
    return { type, toolCallId: id, toolName: name, ...rest };
  }
  return event;
}

/**
 * The copilot (issue 15): POST /copilot/chat answers Server-Sent Events (`data: {type, ...}`: start,
 * content, tool_call with states detecting/executing/completed/error, checkpoint, proposal, then done,
 * cancelled or error); stopping a turn in progress; chats, checkpoints to revert to, proposals to accept or reject.
 */
export function copilotRoutes(clients: Clients, auth: Authenticator, checker: AccessChecker, live?: ExecutionLive): Router {
  const r = Router();

  r.post('/copilot/chat', async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(chatBody, req.body);
    await checker.require(actor, body.workflowId, 'write');
    const { workflow } = await clients.registry.getWorkflow({ actor, workflowId: body.workflowId, access: 'write' });
    if (!workflow) throw new AppError('not_found', `Workflow ${body.workflowId} not found`);
    const turnId = randomUUID();
    const subs: Subscription[] = [];
    let open = true;
    // Events that come before the stream's headers (the turn may start streaming before StartChat answers) wait here.
    let early: unknown[] | undefined = [];
    const emit = (data: unknown) => (early ? early.push(data) : send(res, data));
    if (live) {
      const relay = <T>(subject: string, map: (value: T) => unknown) =>
        live.nats.subscribe(subject, {
          callback: (err, msg) => {
            const value = err ? undefined : parsed<T>(msg.string());
            if (value !== undefined && open) emit(map(value));
          },
        });
      subs.push(relay<RunStreamChunk>(runChunksSubject(live.instance, turnId), fromChunk));
      subs.push(relay<CopilotTurnEvent>(copilotTurnSubject(live.instance, turnId), fromTurnEvent));
      await live.nats.flush();
    }
    const stop = () => {
      open = false;
      subs.forEach((s) => s.unsubscribe());
    };
    let started;
    try {
      started = await clients.copilot.startChat({
        turnId,
        workflowId: body.workflowId,
        workspaceId: workflow.workspaceId,
        actorId: actor.userId,
        message: body.message,
        chatId: body.chatId,
        provider: body.provider,
        model: body.model,
        propose: body.propose ?? false,
      });
    } catch (err) {
      stop();
      throw err;
    }
    res.status(200).set({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    res.flushHeaders();
    send(res, { type: 'start', chatId: started.chatId, turnId, provider: started.provider, model: started.model });
    early.forEach((data) => send(res, data));
    early = undefined;
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    // A closed browser stops the relay; the turn itself goes on and is stored with the chat.
    res.on('close', stop);
    try {
      const out = await clients.copilot.awaitTurn({ turnId }, { deadlineMs: TURN_WAIT_MS });
      await live?.nats.flush();
      if (open) send(res, endEvent(turnId, out.resultJson));
    } catch (err) {
      if (open) send(res, { type: 'error', error: toAppError(err).message });
    } finally {
      clearInterval(keepAlive);
      stop();
      res.end();
    }
  });

  r.get('/copilot/chats', async (req, res) => {
    const actor = await requireActor(auth, req);
    // Given twice it is a 400 saying so (stringQuery), not 'workflowId is required'.
    const workflowId = stringQuery(req).workflowId ?? '';
    if (!workflowId) throw new AppError('validation', 'workflowId is required');
    await checker.require(actor, workflowId, 'read');
    const out = await clients.copilot.listChats({ workflowId, actorId: actor.userId });
    res.json({ success: true, chats: fromJson(out.chatsJson) });
  });

  r.get('/copilot/chats/:id', async (req, res) => {
    const actor = await requireActor(auth, req);
    const out = await clients.copilot.getChat({ chatId: req.params.id });
    const chat = fromJson(out.chatJson) as { workflowId: string; userId: string };
    if (chat.userId !== actor.userId) throw new AppError('not_found', `Chat ${req.params.id} not found`);
    await checker.require(actor, chat.workflowId, 'read');
    res.json({ success: true, chat });
  });

  // Stops the caller's turn in progress; the turn's own stream then ends with `cancelled`.
  r.post('/copilot/chats/:chatId/turns/:turnId/cancel', async (req, res) => {
    const actor = await requireActor(auth, req);
    const { chatId, turnId } = req.params;
    const chat = fromJson((await clients.copilot.getChat({ chatId })).chatJson) as { workflowId: string; userId: string };
    if (chat.userId !== actor.userId) throw new AppError('not_found', `Chat ${chatId} not found`);
    await checker.require(actor, chat.workflowId, 'write');
    await clients.copilot.cancelTurn({ chatId, turnId, actorId: actor.userId });
    res.status(202).json({ success: true, turnId, message: 'The turn is stopping' });
  });

  r.post('/copilot/checkpoints/:id/revert', async (req, res) => {
    const actor = await requireActor(auth, req);
    const checkpoint = fromJson((await clients.copilot.getCheckpoint({ checkpointId: req.params.id })).checkpointJson) as { workflowId: string };
    await checker.require(actor, checkpoint.workflowId, 'write');
    const out = await clients.copilot.revertCheckpoint({ checkpointId: req.params.id, actorId: actor.userId });
    res.json({ success: true, message: 'Workflow reverted to the checkpoint', version: out.version });
  });

  r.post('/copilot/proposals/:id', async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(proposalBody, req.body);
    const proposal = fromJson((await clients.copilot.getProposal({ proposalId: req.params.id })).proposalJson) as { workflowId: string };
    await checker.require(actor, proposal.workflowId, 'write');
    const out = await clients.copilot.decideProposal({ proposalId: req.params.id, actorId: actor.userId, accept: body.action === 'accept' });
    res.json({ success: true, proposal: fromJson(out.proposalJson) });
  });

  return r;
}
