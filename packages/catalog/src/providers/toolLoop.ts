import { supportsToolUsageControl } from './registry.js';
import type {
  CallContext,
  CallModelInput,
  CallModelOutput,
  ExecuteToolInput,
  ModelCost,
  ModelMessage,
  ModelTokens,
  ModelToolCall,
  ModelToolChoice,
  ModelToolDefinition,
  Timing,
  ToolCallState,
  ToolResult,
} from '@weft/contracts';

/** Tool-call loop limit (§9). */
export const MAX_TOOL_ITERATIONS = 10;
/** What a failed tool says to the model when it gives no error of its own (000 §8). */
export const TOOL_FAILED_MESSAGE = 'Tool execution failed';

/** auto: the model decides; force: called first (in order), then auto; none: not offered (§4). */
export type UsageControl = 'auto' | 'force' | 'none';

/** A tool offered in the loop and how to run it through the tool runtime. */
export interface LoopTool {
  definition: ModelToolDefinition;
  usageControl: UsageControl;
  /** The executeTool id (`slack_message`, `custom_<id>`, …). */
  toolId: string;
  /** Values the user set in the form; they win over the model's arguments. */
  userParams: Record<string, unknown>;
}

/** Input of one agent tool loop (the child workflow's argument). */
export interface ToolLoopInput {
  request: Omit<CallModelInput, 'tools' | 'toolChoice' | 'messages' | 'stream'>;
  messages: ModelMessage[];
  tools: LoopTool[];
  /** Publish tokens and tool call states of this block. */
  stream?: { executionId: string; blockId: string };
  toolContext: CallContext;
  envVars?: Record<string, string>;
  maxIterations?: number;
}

/** One tool call of the loop as the agent's output lists it. */
export interface ToolCallLog {
  name: string;
  arguments: Record<string, unknown>;
  success: boolean;
  result?: unknown;
  error?: string;
  startTime: string;
  endTime: string;
  duration: number;
}

/** The loop's answer with its tokens, cost and timing (spec 001 §3 "LLM response"). */
export interface ToolLoopResult {
  content: string;
  model: string;
  tokens: ModelTokens;
  cost: ModelCost;
  toolCalls: ToolCallLog[];
  modelCalls: number;
  timing: Timing & { modelTime: number; toolsTime: number; firstResponseTime: number; iterations: number };
  /** The final answer's warning (CallModelOutput.warning: cut off at the max tokens limit), for the agent's output. */
  warning?: string;
}

/** Which of the loop's tool calls a tool run is: the name the model called, and its place in the result's `toolCalls` (1 the first). */
export interface LoopToolCall {
  name: string;
  number: number;
}

/** A tool call's state on the block's stream (spec 000 §4). */
export interface LoopToolState {
  id: string;
  name: string;
  state: ToolCallState;
}

/** The two calls the loop makes: activities in a workflow (local or not), plain functions in unit tests. */
export interface LoopOps {
  callModel(input: CallModelInput): Promise<CallModelOutput>;
  executeTool(input: ExecuteToolInput, call: LoopToolCall): Promise<ToolResult>;
  now(): number;
  /**
   * Publishes a tool call's state on a streamed block's stream as chunk `seq` (the loop numbers them
   * among the model calls' chunks). When given, each tool call the loop runs is `executing` as it starts
   * and `completed` or `error` as it ends, whatever the others do; without it (the runner's older loop)
   * every answered call is `executing` from its model call and the finished ones' states go out with the
   * next model call.
   */
  toolState?(seq: number, state: LoopToolState): void;
}

/** A provider failure inside the loop, rethrown with the loop's timing (§8). */
export class ModelLoopError extends Error {
  constructor(
    message: string,
    readonly timing: Timing,
  ) {
    super(message);
    this.name = 'ModelLoopError';
  }
}

function timing(start: number, end: number): Timing {
  return { startTime: new Date(start).toISOString(), endTime: new Date(end).toISOString(), duration: end - start };
}

/** The innermost message of an error chain (an activity or child workflow failure wraps the callee's own error). */
export function innermostMessage(err: unknown): string {
  let current: unknown = err;
  let message = err instanceof Error ? err.message : String(err);
  while (current instanceof Error) {
    if (current.message) message = current.message;
    current = current.cause;
  }
  return message;
}

function callKey(call: ModelToolCall): string {
  return `${call.name}:${JSON.stringify(call.arguments)}`;
}

function nonEmpty(params: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}

/**
 * Model request → the requested tool calls (concurrently, through the tool runtime) → follow-up
 * request, up to 10 iterations (§4). Forced tools are forced one after another, then the choice
 * returns to auto; `none` tools are never offered; Cerebras and Groq get no tool choice. Cerebras'
 * repeated identical calls are skipped and a final answer is asked with tool choice none. A failed
 * tool answers the model `{error: true, message, tool}` and the loop goes on; a provider error is
 * rethrown with timing.
 */
export async function runToolLoop(input: ToolLoopInput, ops: LoopOps): Promise<ToolLoopResult> {
  const start = ops.now();
  const model = input.request.model;
  const offered = input.tools.filter((t) => t.usageControl !== 'none');
  const byName = new Map(offered.map((t) => [t.definition.name, t]));
  const definitions = offered.map((t) => t.definition);
  const control = input.request.provider === 'huggingface' ? false : supportsToolUsageControl(model);
  const isCerebras = input.request.provider === 'cerebras' || /^cerebras/i.test(model);
  const forced = control ? offered.filter((t) => t.usageControl === 'force').map((t) => t.definition.name) : [];
  const usedForced = new Set<string>();
  const messages: ModelMessage[] = [...input.messages];
  const tokens: ModelTokens = { prompt: 0, completion: 0, total: 0 };
  const cost: ModelCost = { input: 0, output: 0, total: 0 };
  const toolCalls: ToolCallLog[] = [];
  const seen = new Set<string>();
  let seq = 0;
  let modelTime = 0;
  let toolsTime = 0;
  let firstResponseTime = 0;
  let modelCalls = 0;
  let pendingStates: LoopToolState[] = [];
  const liveStates = input.stream !== undefined && ops.toolState !== undefined;
  /** Streams a tool call's state at once, numbered after what the block's stream has sent. */
  const sendState = (state: LoopToolState) => {
    if (liveStates) ops.toolState?.(seq++, state);
  };

  const choice = (): ModelToolChoice | undefined => {
    if (definitions.length === 0) return undefined;
    const next = forced.find((name) => !usedForced.has(name));
    return next ? { name: next } : 'auto';
  };

  const ask = async (toolChoice: ModelToolChoice | undefined, withTools: boolean): Promise<CallModelOutput> => {
    const before = ops.now();
    let out: CallModelOutput;
    try {
      out = await ops.callModel({
        ...input.request,
        messages: [...messages],
        ...(withTools && definitions.length > 0 ? { tools: definitions } : {}),
        ...(toolChoice ? { toolChoice } : {}),
        ...(input.stream
          ? { stream: { ...input.stream, seqStart: seq, ...(liveStates ? { callerSendsToolStates: true } : pendingStates.length ? { toolStates: pendingStates } : {}) } }
          : {}),
      });
    } catch (err) {
      throw new ModelLoopError(innermostMessage(err), timing(start, ops.now()));
    }
    pendingStates = [];
    seq += out.chunks;
    modelCalls += 1;
    const took = ops.now() - before;
    modelTime += took;
    if (modelCalls === 1) firstResponseTime = took;
    tokens.prompt += out.tokens.prompt;
    tokens.completion += out.tokens.completion;
    tokens.total += out.tokens.total;
    cost.input += out.cost.input;
    cost.output += out.cost.output;
    cost.total += out.cost.total;
    return out;
  };

  const runTool = async (call: ModelToolCall, number: number): Promise<{ call: ModelToolCall; content: string; ok: boolean; log: ToolCallLog }> => {
    const began = ops.now();
    const tool = byName.get(call.name);
    let result: ToolResult;
    if (!tool) {
      const now = new Date(began).toISOString();
      result = { success: false, output: null, error: `Tool not found: ${call.name}`, timing: { startTime: now, endTime: now, duration: 0 } };
    } else {
      try {
        result = await ops.executeTool(
          {
            toolId: tool.toolId,
            params: { ...call.arguments, ...nonEmpty(tool.userParams) },
            context: input.toolContext,
            ...(input.envVars ? { envVars: input.envVars } : {}),
          },
          { name: call.name, number },
        );
      } catch (err) {
        const end = ops.now();
        result = { success: false, output: null, error: innermostMessage(err) || TOOL_FAILED_MESSAGE, timing: timing(began, end) };
      }
    }
    const end = ops.now();
    const log: ToolCallLog = {
      name: call.name,
      arguments: call.arguments,
      success: result.success,
      ...(result.success ? { result: result.output } : { error: result.error || TOOL_FAILED_MESSAGE }),
      ...timing(began, end),
    };
    const content = result.success ? JSON.stringify(result.output ?? null) : JSON.stringify({ error: true, message: result.error || TOOL_FAILED_MESSAGE, tool: call.name });
    // This call's own end, streamed while the others may still run.
    sendState({ id: call.id, name: call.name, state: result.success ? 'completed' : 'error' });
    return { call, content, ok: result.success, log };
  };

  let response = await ask(choice(), true);
  let iterations = 0;
  while (iterations < (input.maxIterations ?? MAX_TOOL_ITERATIONS) && response.toolCalls.length > 0) {
    for (const call of response.toolCalls) if (forced.includes(call.name)) usedForced.add(call.name);
    let calls = response.toolCalls;
    if (isCerebras) {
      calls = calls.filter((c) => !seen.has(callKey(c)));
      if (calls.length === 0) {
        // §4: Cerebras repeated itself: ask for the final answer with tool choice none.
        response = await ask('none', true);
        break;
      }
      for (const c of calls) seen.add(callKey(c));
    }
    messages.push({ role: 'assistant', content: response.content, toolCalls: calls });
    // Only the calls run are `executing` (not a Cerebras repeat the loop skips).
    for (const c of calls) sendState({ id: c.id, name: c.name, state: 'executing' });
    const began = ops.now();
    const before = toolCalls.length;
    const results = await Promise.all(calls.map((c, i) => runTool(c, before + i + 1)));
    toolsTime += ops.now() - began;
    for (const r of results) {
      // In the order the model asked for them, whichever finished first.
      toolCalls.push(r.log);
      messages.push({ role: 'tool', toolCallId: r.call.id, name: r.call.name, content: r.content });
      if (input.stream && !liveStates) pendingStates.push({ id: r.call.id, name: r.call.name, state: r.ok ? 'completed' : 'error' });
    }
    iterations += 1;
    response = await ask(choice(), true);
  }
  const end = ops.now();
  const round = (n: number) => Math.round(n * 1_000_000) / 1_000_000;
  return {
    content: response.content,
    model: response.model,
    tokens,
    cost: { input: round(cost.input), output: round(cost.output), total: round(cost.total) },
    toolCalls,
    modelCalls,
    timing: { ...timing(start, end), modelTime, toolsTime, firstResponseTime, iterations },
    ...(response.warning ? { warning: response.warning } : {}),
  };
}
