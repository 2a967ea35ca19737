import { patched } from '@temporalio/workflow';
import type { RunnableBlock } from '../types.js';
import type { RunWorkflowArgs } from './run.js';

/**
 * Patch of a chat-mode starter's output: `{input: message, conversationId?}` (so `<start.input>` is the
 * message, as in Sim), where runs recorded before it gave `{input: runInput}` (`<start.input.input>`);
 * a block reading `<start.input>` (a forEach over it, a condition on it) may take another path.
 */
export const CHAT_STARTER_PATCH = 'chat-starter-message';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A chat message: an object with `input` and no key but `input` and `conversationId`. */
const isChatMessage = (v: unknown): v is { input: unknown; conversationId?: unknown } =>
  isRecord(v) && 'input' in v && Object.keys(v).every((k) => k === 'input' || k === 'conversationId');

/**
 * What the starter gives the blocks after it. In chat mode (`startWorkflow` = `chat`) a run whose
 * input is a chat message, `{input: message, conversationId?}` and no other key, as a chat and the
 * Run button send it, gives the message as `input` and the conversation id when one was given. Any
 * other run keeps `{input: runInput}`: a manual, webhook or schedule starter, a chat-mode workflow
 * called with fields of its own (`{input: "hi", userId: 7}` too, so `<start.userId>` is 7), and a
 * child run, whose `<start.input>` is what its parent's workflow block passes (001: "available in
 * the child as start.input").
 * The patch is asked only when the chat form applies: other runs record no marker.
 */
export function starterOutput(block: RunnableBlock, args: Pick<RunWorkflowArgs, 'input' | 'trigger'>): Record<string, unknown> {
  const { input } = args;
  const chat = block.subBlocks.startWorkflow?.value === 'chat' && args.trigger !== 'workflow' && isChatMessage(input);
  if (!chat || !patched(CHAT_STARTER_PATCH)) return { input };
  const conversationId = input.conversationId;
  return { input: input.input, ...(conversationId !== undefined && conversationId !== null ? { conversationId } : {}) };
}
