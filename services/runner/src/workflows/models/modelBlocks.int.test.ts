/**
 * Model blocks at workflow level on a real Temporal server: the run workflow, the agent's tool loop
 * as a child workflow on a stand-in integrations worker (the loop's workflow code is the integrations
 * service's, its model calls local activities there), whose callModel speaks the chat
 * completions protocol to the OpenAI fake (the real adapters are tested against the same fake in
 * the integrations service), so every provider request is counted where it lands.
 */
import { ApplicationFailure } from '@temporalio/common';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { calculateCost } from '@weft/catalog';
import type {
  CallModelInput,
  CallModelOutput,
  CreateEmbeddingsInput,
  CreateEmbeddingsOutput,
  ExecuteToolInput,
  GenerateImageInput,
  GenerateImageOutput,
  ModelActivities,
  ToolResult,
} from '@weft/contracts';
import { createLogger, temporalLogger } from '@weft/platform';
import { backingEnv, createOpenAIFake, uniqueSuffix, type OpenAIFake } from '@weft/testkit';
import { keepHistory } from '@weft/testkit/histories';
import { graphOf, historiesDir, loopHistoriesDir, ran, recordedRunLog, toolLoopBundle, workflowBundle } from '../../testing/engineHarness.js';
import type { runWorkflow, RunWorkflowArgs } from '../index.js';
import type { RunnerActivities, RunResult } from '../types.js';

const timing = () => ({ startTime: new Date().toISOString(), endTime: new Date().toISOString(), duration: 0 });

interface ChatAnswer {
  model: string;
  choices: Array<{ message: { content: string | null; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> }; finish_reason?: string }>;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  error?: { message: string };
}

/** A JSON POST to the fake provider; an error answer fails as the model activities fail (retryable from 500). */
async function postProvider<T>(url: string, apiKey: string | undefined, body: unknown): Promise<T> {
  const started = timing();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey ?? 'operator-key'}` }, body: JSON.stringify(body) });
  const answer = (await res.json()) as T & { error?: { message: string } };
  if (!res.ok) {
    throw ApplicationFailure.create({ message: answer.error?.message ?? `status ${res.status}`, nonRetryable: res.status < 500, details: [{ provider: 'openai', status: res.status, timing: started }] });
  }
  return answer;
}

/** Embeddings as the integrations worker makes them, against the fake's /v1/embeddings. */
async function embeddings(fake: OpenAIFake, input: CreateEmbeddingsInput): Promise<CreateEmbeddingsOutput> {
  const model = input.model ?? 'text-embedding-3-small';
  const body = await postProvider<{ model: string; data: Array<{ embedding: number[] }>; usage: { prompt_tokens: number; total_tokens: number } }>(`${fake.baseUrl}/embeddings`, input.apiKey, {
    model,
    input: Array.isArray(input.input) ? input.input : [input.input],
    encoding_format: input.encodingFormat,
  });
  const cost = calculateCost(model, body.usage.prompt_tokens, 0);
  return { embeddings: body.data.map((d) => d.embedding), model: body.model, usage: body.usage, cost: { input: cost.input, output: cost.output, total: cost.total } };
}

/** Image generation as the integrations worker makes it, against the fake's /v1/images/generations. */
async function images(fake: OpenAIFake, input: GenerateImageInput): Promise<GenerateImageOutput> {
  const { context: _context, apiKey, ...request } = input;
  const body = await postProvider<{ data: Array<{ url?: string; b64_json?: string; revised_prompt?: string }> }>(`${fake.baseUrl}/images/generations`, apiKey, request);
  const urls = body.data.map((d) => d.url ?? `data:image/png;base64,${d.b64_json ?? ''}`);
  const revised = body.data[0]?.revised_prompt;
  return { content: urls[0] ?? '', image: urls[0] ?? '', metadata: { model: input.model, images: urls, ...(revised ? { revisedPrompt: revised } : {}) } };
}

/** A provider call as the integrations worker makes it, reduced to one JSON chat completion. */
async function chatCompletion(fake: OpenAIFake, input: CallModelInput): Promise<CallModelOutput> {
  const body = await postProvider<ChatAnswer>(`${fake.baseUrl}/chat/completions`, input.apiKey, {
      model: input.model,
      system: input.systemPrompt,
      messages: input.messages,
      tools: input.tools,
      tool_choice: input.toolChoice,
      temperature: input.temperature,
      max_tokens: input.maxTokens,
      response_format: input.responseFormat,
  });
  const message = body.choices[0]?.message;
  const prompt = body.usage?.prompt_tokens ?? 0;
  const completion = body.usage?.completion_tokens ?? 0;
  const cost = calculateCost(input.model, prompt, completion);
  return {
    content: message?.content ?? '',
    model: body.model,
    provider: 'openai',
    toolCalls: (message?.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: JSON.parse(c.function.arguments) as Record<string, unknown> })),
    tokens: { prompt, completion, total: prompt + completion },
    cost: { input: cost.input, output: cost.output, total: cost.total },
    timing: timing(),
    chunks: 0,
    // As the model layer reports an answer cut off at the max tokens limit (cutShortWarning of the model layer's errors.ts).
    ...(body.choices[0]?.finish_reason === 'length' ? { warning: CUT_WARNING } : {}),
  };
}

const CUT_WARNING = 'The answer was cut off at the max tokens limit (openai finish_reason length): it is incomplete';

type ToolScript = (input: ExecuteToolInput) => Promise<ToolResult> | ToolResult;

describe('model blocks in a run (real Temporal, the OpenAI fake behind callModel)', () => {
  let fake: OpenAIFake;
  let client: Client;
  let connection: Connection;
  let native: NativeConnection;
  let queue: string;
  let toolQueue: string;
  let workflowWorker: { worker: Worker; running: Promise<void> } | undefined;
  let integrationsWorker: { worker: Worker; running: Promise<void> } | undefined;
  let integrations: ModelActivities & { executeFunction: () => Promise<never>; executeTool: (input: ExecuteToolInput) => Promise<ToolResult> };
  let toolScript: ToolScript;
  const toolCalls: ExecuteToolInput[] = [];
  const localModels = ['llama3.2:latest'];

  const runnerActivities: RunnerActivities = {
    recordRunEvent: () => Promise.resolve(),
    storeBlob: (executionId, value) => Promise.resolve({ $blobRef: `${executionId}/x`, bytes: JSON.stringify(value).length }),
    loadBlob: () => Promise.resolve(null),
    loadEnvironment: () => Promise.resolve({ OPENAI_KEY: 'sk-from-env' }),
    startRun: (_event, environment) => Promise.resolve<Record<string, string>>(environment ? { OPENAI_KEY: 'sk-from-env' } : {}),
    loadChildWorkflow: (_ws, id) => Promise.reject(new Error(`Workflow ${id} not found`)),
  };

  async function startWorkflowWorker(): Promise<void> {
    const worker = await Worker.create({ connection: native, taskQueue: queue, workflowBundle: await workflowBundle(), activities: runnerActivities, sinks: recordedRunLog([]) });
    workflowWorker = { worker, running: worker.run() };
  }

  async function startIntegrationsWorker(): Promise<void> {
    const worker = await Worker.create({ connection: native, taskQueue: toolQueue, workflowBundle: await toolLoopBundle(), activities: integrations });
    integrationsWorker = { worker, running: worker.run() };
  }

  async function stopIntegrationsWorker(): Promise<void> {
    if (!integrationsWorker) return;
    integrationsWorker.worker.shutdown();
    await integrationsWorker.running;
    integrationsWorker = undefined;
  }

  async function stopWorkflowWorker(): Promise<void> {
    if (!workflowWorker) return;
    workflowWorker.worker.shutdown();
    await workflowWorker.running;
    workflowWorker = undefined;
  }

  beforeAll(async () => {
    try {
      Runtime.install({ logger: temporalLogger(createLogger('temporal-test', 'silent')), shutdownSignals: [] });
    } catch {
      // Installed already in this process.
    }
    fake = await createOpenAIFake();
    const { temporalAddress } = await backingEnv();
    connection = await Connection.connect({ address: temporalAddress });
    client = new Client({ connection });
    native = await NativeConnection.connect({ address: temporalAddress });
    queue = `models-test-${uniqueSuffix()}`;
    toolQueue = `models-tools-${uniqueSuffix()}`;
    const models: ModelActivities = {
      callModel: (input) => chatCompletion(fake, input),
      createEmbeddings: (input) => embeddings(fake, input),
      generateImage: (input) => images(fake, input),
      listLocalModels: () => Promise.resolve(localModels),
    };
    integrations = {
      ...models,
      executeFunction: () => Promise.reject(new Error('not scripted')),
      async executeTool(input: ExecuteToolInput) {
        toolCalls.push(input);
        return toolScript(input);
      },
    };
    await startIntegrationsWorker();
    await startWorkflowWorker();
  });

  afterAll(async () => {
    await stopWorkflowWorker();
    await stopIntegrationsWorker();
    await native?.close();
    await connection?.close();
    await fake?.close();
  });

  beforeEach(() => {
    fake.reset();
    fake.fallback({ content: 'Hello from the fake model.' });
    toolCalls.length = 0;
    toolScript = (input) => ({ success: true, output: { sent: true, text: input.params.text }, timing: timing() });
  });

  const start = (state: RunWorkflowArgs['state'], extra: Partial<RunWorkflowArgs> = {}) => {
    const workflowId = `models-${uniqueSuffix()}`;
    return client.workflow.start<typeof runWorkflow>('runWorkflow', {
      taskQueue: queue,
      workflowId,
      args: [{ executionId: workflowId, workflowId: 'wf-models', workspaceId: 'ws-1', state, input: { question: 'What is new?' }, requestId: 'req-1', integrationsTaskQueue: toolQueue, retryInitialIntervalMs: 10, ...extra }],
    });
  };
  const run = async (state: RunWorkflowArgs['state']): Promise<RunResult> => (await start(state)).result();
  type RunHandle = Awaited<ReturnType<typeof start>>;
  /** Keeps a finished run's history for the runner's replay test (WEFT_WRITE_HISTORIES), checking now that it replays. */
  const keepRun = async (handle: RunHandle, name: string): Promise<void> => {
    const history = await keepHistory(handle, historiesDir, name);
    await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, handle.workflowId);
  };
  /**
   * Keeps the history of the agent tool loop a finished run started (the integrations worker's
   * `modelToolLoop`, its child workflow) for the integrations service's replay test, checking now that
   * it replays with the loop's code; answers the history.
   */
  const keepLoop = async (handle: RunHandle, name: string): Promise<Awaited<ReturnType<typeof keepHistory>>> => {
    const events = (await handle.fetchHistory()).events ?? [];
    const children = events.flatMap((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId ?? []);
    expect(children).toHaveLength(1);
    const loop = client.workflow.getHandle(children[0] ?? '');
    const history = await keepHistory(loop, loopHistoriesDir, name);
    await Worker.runReplayHistory({ workflowBundle: await toolLoopBundle() }, history, loop.workflowId);
    return history;
  };
  const runKept = async (state: RunWorkflowArgs['state'], keep: (handle: RunHandle) => Promise<unknown>): Promise<RunResult> => {
    const handle = await start(state);
    const result = await handle.result();
    await keep(handle);
    return result;
  };

  const S = { type: 'starter', name: 'Start' };
  const slackTool = (usageControl = 'auto') => ({ type: 'slack', operation: 'send', usageControl, params: { authMethod: 'bot_token', botToken: 'xoxb-1', channel: '#news' } });
  const agent = (values: Record<string, unknown>) => ({ type: 'agent', name: 'Agent 1', values: { model: 'gpt-4o', userPrompt: '<start.input.question>', apiKey: '{{OPENAI_KEY}}', ...values } });
  type Sent = { messages: Array<{ role: string; content?: string }>; tool_choice?: unknown; tools?: Array<{ name: string; parameters: { properties: Record<string, unknown> } }>; temperature?: number };
  const sent = (i: number) => fake.chatRequests()[i]?.body as Sent;

  it('agent with a tool block as its tool: the model fills the llm parameters, the form the rest; output content, model, tokens, toolCalls, cost', async () => {
    fake.reply({ toolCalls: [{ name: 'slack_message', arguments: { text: 'Weft 2 is out', channel: '#model-choice' } }], usage: { prompt: 1000, completion: 100 } }, { content: 'Posted the news.', usage: { prompt: 1200, completion: 20 } });
    const result = await runKept(graphOf({ s: S, a: agent({ systemPrompt: 'You post news.', tools: [slackTool()] }) }, [['s', 'a']]), (h) => keepLoop(h, 'tool-loop'));
    expect(result.error).toBeUndefined();
    const first = sent(0);
    expect(fake.chatRequests()[0]?.headers.authorization).toBe('Bearer sk-from-env');
    expect(first).toMatchObject({ system: 'You post news.', messages: [{ role: 'user', content: 'What is new?' }], temperature: 0.7, tool_choice: 'auto' });
    expect(Object.keys(first.tools?.[0]?.parameters.properties ?? {})).toEqual(['text']);
    expect(toolCalls).toHaveLength(1);
    expect(toolCalls[0]).toMatchObject({ toolId: 'slack_message', params: { text: 'Weft 2 is out', channel: '#news', accessToken: 'xoxb-1' }, context: { blockId: 'a', workflowId: 'wf-models' } });
    expect(sent(1).messages.at(-1)).toEqual({ role: 'tool', toolCallId: expect.any(String) as string, name: 'slack_message', content: '{"sent":true,"text":"Weft 2 is out"}' });
    // gpt-4o: 2.5 input and 10 output per million tokens.
    const cost = { input: 0.0055, output: 0.0012, total: 0.0067 };
    expect(result.output).toMatchObject({ content: 'Posted the news.', model: 'gpt-4o', tokens: { prompt: 2200, completion: 120, total: 2320 }, cost });
    expect((result.output as { toolCalls: unknown[] }).toolCalls).toMatchObject([{ name: 'slack_message', success: true, result: { sent: true } }]);
    const log = result.logs.find((l) => l.blockId === 'a');
    expect(log).toMatchObject({ success: true, tokens: { prompt: 2200, completion: 120, total: 2320 }, cost });
    expect(result.cost).toEqual(cost);
  });

  it("an answer cut off at the max tokens limit stays the answer, its warning in the agent's, translate's and Hugging Face's output and log", async () => {
    fake.fallback({ content: 'Cut sho', finishReason: 'length' });
    const translate = { type: 'translate', name: 'Translate 1', values: { context: 'Bonjour', targetLanguage: 'German', model: 'gpt-4o', apiKey: 'k' } };
    const hf = { type: 'huggingface', name: 'HF 1', values: { model: 'meta-llama/Llama-3.3-70B-Instruct', content: 'Hi', maxTokens: 3, apiKey: 'hf' } };
    const result = await run(graphOf({ s: S, a: agent({ maxTokens: 3 }), t: translate, h: hf }, [['s', 'a'], ['s', 't'], ['s', 'h']]));
    expect(result.success).toBe(true);
    for (const id of ['a', 't', 'h']) expect(result.logs.find((l) => l.blockId === id)?.output).toMatchObject({ content: 'Cut sho', warning: CUT_WARNING });
    fake.fallback({ content: 'Whole.' });
    const whole = await run(graphOf({ s: S, a: agent({}), h: hf }, [['s', 'a'], ['s', 'h']]));
    for (const id of ['a', 'h']) expect(whole.logs.find((l) => l.blockId === id)?.output).not.toHaveProperty('warning');
  });

  it('forced tools are forced one after another; a failed tool goes back to the model and the loop goes on', async () => {
    toolScript = (input) => (input.toolId === 'custom_weather' ? { success: false, output: null, error: 'Weather service down', timing: timing() } : { success: true, output: { ok: 1 }, timing: timing() });
    const weather = { type: 'custom-tool', id: 'weather', title: 'Weather', usageControl: 'force', schema: { function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } } };
    fake.reply(
      { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] },
      { toolCalls: [{ name: 'slack_message', arguments: { text: 'no weather today' } }] },
      { content: 'The weather service is down; I told the channel.' },
    );
    const result = await runKept(graphOf({ s: S, a: agent({ tools: [weather, slackTool('force'), { ...slackTool('none'), toolId: 'slack_canvas' }] }) }, [['s', 'a']]), (h) => keepLoop(h, 'tool-loop-forced'));
    expect(result.success).toBe(true);
    expect(fake.chatRequests().map((r) => (r.body as Sent).tool_choice)).toEqual([{ name: 'get_weather' }, { name: 'slack_message' }, 'auto']);
    expect(sent(0).tools?.map((t) => t.name)).toEqual(['get_weather', 'slack_message']);
    expect(JSON.parse(sent(1).messages.at(-1)?.content ?? '')).toEqual({ error: true, message: 'Weather service down', tool: 'get_weather' });
    expect((result.output as { toolCalls: Array<{ success: boolean }> }).toolCalls.map((c) => c.success)).toEqual([false, true]);
  });

  it('a provider error fails the agent with the provider message and its timing', async () => {
    fake.reply({ error: { status: 401, message: 'Incorrect API key provided' } });
    const result = await runKept(graphOf({ s: S, a: agent({}) }, [['s', 'a']]), (h) => keepLoop(h, 'tool-loop-provider-error'));
    expect(result).toMatchObject({ success: false, error: 'Agent 1: Incorrect API key provided' });
    const log = result.logs.find((l) => l.blockId === 'a');
    const t = (log?.output as { timing?: { startTime: string; endTime: string; duration: number } } | null)?.timing;
    expect(t?.duration).toBeGreaterThanOrEqual(0);
    expect(Date.parse(t?.endTime ?? '')).toBeGreaterThanOrEqual(Date.parse(t?.startTime ?? 'x'));
    expect(fake.chatRequests()).toHaveLength(1);
  });

  it('an agent model call failing for a transient reason is tried again inside the loop, and the agent\'s log shows the tries; an answered error is not', async () => {
    fake.reply(
      { error: { status: 503, message: 'The server is overloaded' } },
      { toolCalls: [{ name: 'slack_message', arguments: { text: 'Weft 2 is out' } }] },
      { content: 'Posted the news.' },
    );
    const result = await runKept(graphOf({ s: S, a: agent({ tools: [slackTool()] }) }, [['s', 'a']]), (h) => keepLoop(h, 'tool-loop-model-retries'));
    expect(result.output).toMatchObject({ content: 'Posted the news.' });
    expect(fake.chatRequests()).toHaveLength(3);
    expect(toolCalls).toHaveLength(1);
    const log = result.logs.find((l) => l.blockId === 'a');
    // The first model call took two tries; the second one, one.
    expect(log).toMatchObject({ success: true, attempts: 2 });
    expect(log?.attemptLog?.map((t) => [t.call, t.attempt, t.error])).toEqual([
      [1, 1, 'The server is overloaded'],
      [1, 2, undefined],
    ]);

    fake.reset();
    fake.reply({ error: { status: 400, message: "Invalid value for 'tool_choice'" } });
    const answered = await run(graphOf({ s: S, a: agent({}) }, [['s', 'a']]));
    expect(answered).toMatchObject({ success: false, error: "Agent 1: Invalid value for 'tool_choice'" });
    expect(fake.chatRequests()).toHaveLength(1);
    expect(answered.logs.find((l) => l.blockId === 'a')).toMatchObject({ success: false, attempts: 1 });
  });

  it("an agent's tool call failing for a transient reason is tried again by the loop with the block's tries, each try in the agent's log; Temporal's own retries are off", async () => {
    let tries = 0;
    toolScript = () => {
      tries += 1;
      if (tries <= 2) throw ApplicationFailure.retryable('HTTP error 503: Service Unavailable', 'TransientToolError');
      return { success: true, output: { sent: true }, timing: timing() };
    };
    fake.reply({ toolCalls: [{ name: 'slack_message', arguments: { text: 'Weft 2 is out' } }] }, { content: 'Posted on the third try.' });
    const handle = await start(graphOf({ s: S, a: agent({ tools: [slackTool()] }) }, [['s', 'a']]));
    const result = await handle.result();
    const history = await keepLoop(handle, 'tool-loop-tool-retries');
    expect(result.output).toMatchObject({ content: 'Posted on the third try.' });
    expect(toolCalls).toHaveLength(3);
    // Every try names the same call (the loop's first tool call), so a polling tool's tries share one job.
    expect(toolCalls.map((c) => c.call)).toEqual([1, 1, 1]);
    // The model sees the answer of the try that worked, once.
    expect(sent(1).messages.at(-1)).toMatchObject({ role: 'tool', content: '{"sent":true}' });
    expect((result.output as { toolCalls: unknown[] }).toolCalls).toMatchObject([{ name: 'slack_message', success: true, result: { sent: true } }]);
    const log = result.logs.find((l) => l.blockId === 'a');
    expect(log).toMatchObject({ success: true, attempts: 3 });
    expect(log?.attemptLog?.map((t) => [t.tool, t.toolCall, t.attempt, t.error])).toEqual([
      ['slack_message', 1, 1, 'HTTP error 503: Service Unavailable'],
      ['slack_message', 1, 2, 'HTTP error 503: Service Unavailable'],
      ['slack_message', 1, 3, undefined],
    ]);
    const [first, second] = log?.attemptLog ?? [];
    expect(Date.parse(second?.startedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(first?.startedAt ?? 'x') + (first?.durationMs ?? 0));
    // One activity per try, each allowed one attempt by Temporal; the waits between them are workflow timers.
    const events = history.events ?? [];
    const scheduled = events.flatMap((e) => e.activityTaskScheduledEventAttributes ?? []);
    expect(scheduled.map((a) => a.activityType?.name)).toEqual(['executeTool', 'executeTool', 'executeTool']);
    for (const a of scheduled) expect(a.retryPolicy?.maximumAttempts).toBe(1);
    expect(events.filter((e) => e.timerStartedEventAttributes)).toHaveLength(2);
  });

  it("an agent's tool call answered with an error (a 4xx, a non-retryable failure) is made once and goes back to the model as it is; 0 retries is one try; tries spent go back as the last error", async () => {
    // A 4xx is a tool result: no second call, the model reads its error.
    toolScript = () => ({ success: false, output: { status: 404 }, error: 'HTTP error 404: channel_not_found', timing: timing() });
    fake.reply({ toolCalls: [{ name: 'slack_message', arguments: { text: 'hi' } }] }, { content: 'The channel does not exist.' });
    const answered = await run(graphOf({ s: S, a: agent({ tools: [slackTool()] }) }, [['s', 'a']]));
    expect(answered.output).toMatchObject({ content: 'The channel does not exist.' });
    expect(toolCalls).toHaveLength(1);
    expect(JSON.parse(sent(1).messages.at(-1)?.content ?? '')).toEqual({ error: true, message: 'HTTP error 404: channel_not_found', tool: 'slack_message' });
    expect(answered.logs.find((l) => l.blockId === 'a')).toMatchObject({ success: true, attempts: 1 });
    expect(answered.logs.find((l) => l.blockId === 'a')).not.toHaveProperty('attemptLog');

    // A non-retryable failure thrown by the activity is an answered error too.
    fake.reset();
    toolCalls.length = 0;
    toolScript = () => {
      throw ApplicationFailure.nonRetryable('Invalid channel name', 'ToolError');
    };
    fake.reply({ toolCalls: [{ name: 'slack_message', arguments: { text: 'hi' } }] }, { content: 'Bad channel.' });
    const refused = await run(graphOf({ s: S, a: agent({ tools: [slackTool()] }) }, [['s', 'a']]));
    expect(refused.output).toMatchObject({ content: 'Bad channel.' });
    expect(toolCalls).toHaveLength(1);
    expect(JSON.parse(sent(1).messages.at(-1)?.content ?? '')).toEqual({ error: true, message: 'Invalid channel name', tool: 'slack_message' });

    // Advanced mode, 0 retries: a transient failure is not tried again; the model reads it.
    fake.reset();
    toolCalls.length = 0;
    toolScript = () => {
      throw ApplicationFailure.retryable('socket hang up', 'TransientToolError');
    };
    fake.reply({ toolCalls: [{ name: 'slack_message', arguments: { text: 'hi' } }] }, { content: 'Slack is unreachable.' });
    const once = await run(graphOf({ s: S, a: { ...agent({ tools: [slackTool()], retries: 0 }), advancedMode: true } }, [['s', 'a']]));
    expect(once.output).toMatchObject({ content: 'Slack is unreachable.' });
    expect(toolCalls).toHaveLength(1);
    expect(JSON.parse(sent(1).messages.at(-1)?.content ?? '')).toEqual({ error: true, message: 'socket hang up', tool: 'slack_message' });
    expect(once.logs.find((l) => l.blockId === 'a')).toMatchObject({ success: true, attempts: 1 });

    // Transient on every try: 3 tries (the default), each in the log, then the last error goes to the model.
    fake.reset();
    toolCalls.length = 0;
    fake.reply({ toolCalls: [{ name: 'slack_message', arguments: { text: 'hi' } }] }, { content: 'Slack keeps failing.' });
    const spent = await run(graphOf({ s: S, a: agent({ tools: [slackTool()] }) }, [['s', 'a']]));
    expect(spent.output).toMatchObject({ content: 'Slack keeps failing.' });
    expect(toolCalls).toHaveLength(3);
    expect((spent.output as { toolCalls: unknown[] }).toolCalls).toMatchObject([{ name: 'slack_message', success: false, error: 'socket hang up' }]);
    const spentLog = spent.logs.find((l) => l.blockId === 'a');
    expect(spentLog).toMatchObject({ success: true, attempts: 3 });
    expect(spentLog?.attemptLog?.map((t) => [t.tool, t.attempt, t.error])).toEqual([
      ['slack_message', 1, 'socket hang up'],
      ['slack_message', 2, 'socket hang up'],
      ['slack_message', 3, 'socket hang up'],
    ]);
  });

  it("an agent's tool call lost with its worker (no heartbeat) is tried again by the loop after the heartbeat timeout; the log names the lost try", async () => {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    toolScript = async () => {
      if (toolCalls.length === 1) {
        // The first try never answers nor beats: as if its worker died.
        await released;
      }
      return { success: true, output: { sent: true }, timing: timing() };
    };
    fake.reply({ toolCalls: [{ name: 'slack_message', arguments: { text: 'hello' } }] }, { content: 'Sent after the lost try.' });
    try {
      const result = await run(graphOf({ s: S, a: agent({ tools: [slackTool()] }) }, [['s', 'a']]));
      expect(result.output).toMatchObject({ content: 'Sent after the lost try.' });
      expect(toolCalls).toHaveLength(2);
      expect(fake.chatRequests()).toHaveLength(2);
      const log = result.logs.find((l) => l.blockId === 'a');
      expect(log).toMatchObject({ success: true, attempts: 2 });
      expect(log?.attemptLog?.map((t) => [t.tool, t.attempt])).toEqual([
        ['slack_message', 1],
        ['slack_message', 2],
      ]);
      expect(log?.attemptLog?.[0]?.error).toMatch(/heartbeat/i);
      expect(log?.attemptLog?.[0]?.durationMs).toBeGreaterThanOrEqual(15_000);
    } finally {
      release();
    }
  });

  it('a response format makes the parsed answer the output', async () => {
    fake.reply({ content: '{"headline":"Weft 2","score":9}' });
    const result = await run(graphOf({ s: S, a: agent({ responseFormat: '{"type":"object","properties":{"headline":{"type":"string"},"score":{"type":"number"}}}' }) }, [['s', 'a']]));
    expect(result.output).toMatchObject({ headline: 'Weft 2', score: 9, model: 'gpt-4o' });
    expect(result.output).not.toHaveProperty('content');
  });

  /** An agent whose one tool call waits until released, started; resolves once the tool runs. */
  async function agentInTool(final: string): Promise<{ handle: Awaited<ReturnType<typeof start>>; release: () => void }> {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let toolStarted = false;
    toolScript = async () => {
      toolStarted = true;
      await released;
      return { success: true, output: { ok: true }, timing: timing() };
    };
    fake.reply({ toolCalls: [{ name: 'slack_message', arguments: { text: 'hello' } }] }, { content: final });
    const handle = await start(graphOf({ s: S, a: agent({ tools: [slackTool()] }) }, [['s', 'a']]));
    await expect.poll(() => toolStarted, { timeout: 30_000 }).toBe(true);
    return { handle, release };
  }

  it('the run workflow worker lost mid-loop: the run resumes without repeating a finished model call', async () => {
    const { handle, release } = await agentInTool('Done after the crash.');
    await stopWorkflowWorker();
    release();
    await startWorkflowWorker();
    const result = await handle.result();
    expect(result.output).toMatchObject({ content: 'Done after the crash.' });
    expect(fake.chatRequests()).toHaveLength(2);
    expect(toolCalls).toHaveLength(1);
  });

  it('the integrations worker (the loop and its calls) lost mid-loop: another one resumes the loop from history, the finished model call not made again', async () => {
    const { handle, release } = await agentInTool('Done on another worker.');
    // The worker goes away while the tool runs (the tool's answer is delivered as it drains); a fresh
    // worker, with nothing cached, takes the loop's next workflow task and replays it from history.
    const stopping = stopIntegrationsWorker();
    release();
    await stopping;
    expect(fake.chatRequests()).toHaveLength(1);
    await startIntegrationsWorker();
    const result = await handle.result();
    await keepLoop(handle, 'tool-loop-worker-lost');
    expect(result.output).toMatchObject({ content: 'Done on another worker.' });
    expect(fake.chatRequests()).toHaveLength(2);
    expect(toolCalls).toHaveLength(1);
  });

  it('router: picks the block the model names (temperature 0.1) and only that branch runs', async () => {
    fake.reply({ content: 'billing' });
    const state = graphOf(
      {
        s: S,
        r: { type: 'router', name: 'Router 1', values: { userPrompt: 'My invoice is wrong', model: 'gpt-4o', apiKey: 'k' } },
        billing: { type: 'thinking', name: 'Billing', values: { thought: 'billing' } },
        support: { type: 'thinking', name: 'Support', values: { thought: 'support' } },
      },
      [['s', 'r'], ['r', 'billing'], ['r', 'support']],
    );
    const result = await run(state);
    expect(result.success).toBe(true);
    expect(sent(0).temperature).toBe(0.1);
    expect(ran(result)).toEqual(['s', 'r', 'billing']);
    const routerLog = result.logs.find((l) => l.blockId === 'r');
    expect(routerLog?.output).toMatchObject({ selectedPath: { blockId: 'billing', blockTitle: 'Billing' }, tokens: { total: 15 } });
    expect(sent(0).messages).toEqual([{ role: 'user', content: 'My invoice is wrong' }]);
    expect((sent(0) as { system?: string }).system).toContain('ID: support');
    // An answer naming no connected block fails the router.
    fake.reply({ content: 'sales' });
    const wrong = await run(state);
    expect(wrong).toMatchObject({ success: false });
    expect(wrong.error).toContain('Router chose "sales"');
  });

  it('a model call failing for a transient reason is tried again and the log shows each try; an answered error is not', async () => {
    const translate = (name: string, values: Record<string, unknown> = {}, advancedMode = false) =>
      graphOf({ s: S, t: { type: 'translate', name, values: { context: 'Bonjour', targetLanguage: 'German', model: 'gpt-4o', apiKey: 'k', ...values }, ...(advancedMode ? { advancedMode } : {}) } }, [['s', 't']]);
    // 503, then an answer: the block succeeds on its second try.
    fake.reply({ error: { status: 503, message: 'The server is overloaded' } }, { content: 'Hallo' });
    const retried = await runKept(translate('Translate 1'), (h) => keepRun(h, 'model-retries'));
    expect(retried.success).toBe(true);
    expect(fake.chatRequests()).toHaveLength(2);
    const log = retried.logs.find((l) => l.blockId === 't');
    expect(log).toMatchObject({ success: true, output: { content: 'Hallo' }, attempts: 2 });
    expect(log?.attemptLog).toHaveLength(2);
    expect(log?.attemptLog?.[0]).toMatchObject({ attempt: 1, error: 'The server is overloaded' });
    expect(log?.attemptLog?.[1]).toMatchObject({ attempt: 2 });
    expect(log?.attemptLog?.[1]).not.toHaveProperty('error');
    for (const t of log?.attemptLog ?? []) {
      expect(Date.parse(t.startedAt)).toBeGreaterThan(0);
      expect(t.durationMs).toBeGreaterThanOrEqual(0);
    }
    // The second try started after the first one ended (backoff on a workflow timer).
    expect(Date.parse(log?.attemptLog?.[1]?.startedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(log?.attemptLog?.[0]?.startedAt ?? 'x') + (log?.attemptLog?.[0]?.durationMs ?? 0));

    // 400: an answered error, one try only; the provider's message and timing are the block's.
    fake.reset();
    fake.reply({ error: { status: 400, message: "Invalid value for 'temperature'" } });
    const answered = await run(translate('Translate 2'));
    expect(answered).toMatchObject({ success: false, error: "Translate 2: Invalid value for 'temperature'" });
    expect(fake.chatRequests()).toHaveLength(1);
    const badLog = answered.logs.find((l) => l.blockId === 't');
    expect(badLog).toMatchObject({ success: false, attempts: 1 });
    expect(badLog).not.toHaveProperty('attemptLog');
    expect((badLog?.output as { timing?: unknown }).timing).toMatchObject({ duration: expect.any(Number) as number });

    // Transient failures on every try: the block fails after its tries (3 by default), each in the log.
    fake.reset();
    fake.fallback({ error: { status: 502, message: 'Bad gateway' } });
    const exhausted = await run(translate('Translate 3'));
    expect(exhausted).toMatchObject({ success: false, error: 'Translate 3: Bad gateway' });
    expect(fake.chatRequests()).toHaveLength(3);
    const lastLog = exhausted.logs.find((l) => l.blockId === 't');
    expect(lastLog?.attempts).toBe(3);
    expect(lastLog?.attemptLog?.map((t) => t.error)).toEqual(['Bad gateway', 'Bad gateway', 'Bad gateway']);

    // Advanced mode, 0 retries: one try.
    fake.reset();
    fake.fallback({ error: { status: 503, message: 'Still overloaded' } });
    const once = await run(translate('Translate 4', { retries: 0 }, true));
    expect(once).toMatchObject({ success: false, error: 'Translate 4: Still overloaded' });
    expect(fake.chatRequests()).toHaveLength(1);
    expect(once.logs.find((l) => l.blockId === 't')).toMatchObject({ attempts: 1 });
  });

  it('evaluator: one score per metric; content that is not JSON is used as it is; model checks', async () => {
    const metrics = [
      { id: 'm1', cells: {}, name: 'Accuracy', description: 'Is it right?', range: { min: 0, max: 10 } },
      { id: 'm2', name: 'Tone', description: 'Is it kind?', range: { min: 1, max: 5 } },
    ];
    fake.reply({ content: '{"accuracy": 8, "tone": 4}' }, { content: 'I cannot score this.' });
    const evaluator = (values: Record<string, unknown>) => graphOf({ s: S, e: { type: 'evaluator', name: 'Eval 1', values: { metrics, content: 'Paris is in France.', apiKey: 'k', ...values } } }, [['s', 'e']]);
    const scored = await runKept(evaluator({ model: 'gpt-4o' }), (h) => keepRun(h, 'evaluator'));
    expect(scored.output).toMatchObject({ accuracy: 8, tone: 4, model: 'gpt-4o' });
    expect((sent(0) as { response_format?: unknown }).response_format).toMatchObject({ schema: { required: ['accuracy', 'tone'] } });
    const raw = await run(evaluator({ model: 'gpt-4o' }));
    expect(raw).toMatchObject({ success: true, output: { content: 'I cannot score this.' } });
    expect(raw.output).not.toHaveProperty('accuracy');
    expect(await run(evaluator({ model: '' }))).toMatchObject({ success: false, error: 'Eval 1: No model selected' });
    expect(await run(evaluator({ model: 'mystery-model' }))).toMatchObject({ success: false, error: 'Eval 1: Invalid model selected: mystery-model' });
    fake.reply({ content: '{"accuracy": 3, "tone": 2}' });
    expect((await run(evaluator({ model: 'llama3.2:latest' }))).output).toMatchObject({ accuracy: 3, tone: 2 });
  });
  it('translate, vision, Hugging Face and thinking blocks: their requests and outputs', async () => {
    fake.fallback({ content: 'done', usage: { prompt: 20, completion: 10 } });
    const state = graphOf(
      {
        s: S,
        t: { type: 'translate', name: 'Translate 1', values: { context: 'Bonjour le monde', targetLanguage: 'German', model: 'gpt-4o', apiKey: 'k' } },
        v: { type: 'vision', name: 'Vision 1', values: { imageUrl: 'https://img.test/cat.png', model: 'gpt-4o', apiKey: 'k' } },
        h: { type: 'huggingface', name: 'HF 1', values: { model: 'meta-llama/Llama-3.3-70B-Instruct', content: 'Hi there', maxTokens: 'lots', provider: 'together', apiKey: 'hf' } },
        k: { type: 'thinking', name: 'Think 1', values: { thought: 'First the plan.' } },
      },
      [['s', 't'], ['s', 'v'], ['s', 'h'], ['s', 'k']],
    );
    const result = await runKept(state, (h) => keepRun(h, 'translate-vision-huggingface'));
    const out = (id: string) => result.logs.find((l) => l.blockId === id);
    const bodies = fake.chatRequests().map((r) => r.body as Sent & { max_tokens?: number; model: string; system?: string });
    const translate = bodies.find((b) => b.messages[0]?.content === 'Bonjour le monde');
    expect(translate?.system).toContain('German');
    const vision = bodies.find((b) => Array.isArray(b.messages[0]?.content));
    expect(vision).toMatchObject({ max_tokens: 1000, messages: [{ role: 'user', content: [{ type: 'text' }, { type: 'image', url: 'https://img.test/cat.png' }] }] });
    const hf = bodies.find((b) => b.model === 'meta-llama/Llama-3.3-70B-Instruct');
    expect(hf).toMatchObject({ max_tokens: 10000, temperature: 0.7 });
    expect(out('t')?.output).toMatchObject({ content: 'done', tokens: { prompt: 20, completion: 10, total: 30 } });
    expect(out('h')?.output).toMatchObject({ content: 'done', usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 } });
    expect(out('k')?.output).toEqual({ acknowledgedThought: 'First the plan.' });
    expect(bodies).toHaveLength(3);
    const empty = await run(graphOf({ s: S, v: { type: 'vision', name: 'Vision 2', values: { imageUrl: '', apiKey: 'k' } } }, [['s', 'v']]));
    expect(empty).toMatchObject({ success: false, error: 'Vision 2: Image URL is required' });
    expect(fake.chatRequests()).toHaveLength(3);
  });
  it('embeddings and image generator blocks in a run: requests under the §5 rules, outputs, tokens and cost in the run; their errors fail the block', async () => {
    const state = graphOf(
      {
        s: S,
        e: { type: 'embeddings', name: 'Embed 1', values: { input: '<start.input.question>', apiKey: '{{OPENAI_KEY}}' } },
        d: { type: 'image_generator', name: 'Image 1', values: { prompt: 'A lighthouse at dusk', model: 'dall-e-3', n: 1, size: '1792x1024', quality: 'hd', background: 'opaque', apiKey: 'sk-img' } },
        // dall-e-3 makes one image a request (OpenAI refuses n > 1); gpt-image-1 makes several.
        g: { type: 'image_generator', name: 'Image 2', values: { prompt: 'A flat logo', model: 'gpt-image-1', n: 2, background: 'transparent', quality: 'hd', style: 'vivid', apiKey: 'sk-img' } },
      },
      [['s', 'e'], ['s', 'd'], ['s', 'g']],
    );
    const result = await runKept(state, (h) => keepRun(h, 'embeddings-images'));
    expect(result.error).toBeUndefined();
    const sentTo = (path: string) => fake.server.requests.filter((r) => r.path === path);
    const [embedRequest] = sentTo('/v1/embeddings');
    expect(embedRequest?.headers.authorization).toBe('Bearer sk-from-env');
    expect(embedRequest?.body).toEqual({ model: 'text-embedding-3-small', input: ['What is new?'], encoding_format: 'float' });
    const imageBodies = sentTo('/v1/images/generations').map((r) => r.body as Record<string, unknown>);
    const dalle = imageBodies.find((b) => b.model === 'dall-e-3');
    const gpt = imageBodies.find((b) => b.model === 'gpt-image-1');
    // Quality and style only for dall-e-3, background only for gpt-image-1 (§5).
    expect(dalle).toMatchObject({ prompt: 'A lighthouse at dusk', n: 1, size: '1792x1024', quality: 'hd' });
    expect(dalle).not.toHaveProperty('background');
    expect(gpt).toMatchObject({ prompt: 'A flat logo', n: 2, background: 'transparent' });
    expect(gpt).not.toHaveProperty('quality');
    expect(gpt).not.toHaveProperty('style');
    const log = (id: string) => result.logs.find((l) => l.blockId === id);
    // 'What is new?' is three tokens to the fake; text-embedding-3-small is priced per million input tokens.
    const embedCost = calculateCost('text-embedding-3-small', 3, 0);
    expect(log('e')).toMatchObject({ success: true, output: { model: 'text-embedding-3-small', usage: { prompt_tokens: 3, total_tokens: 3 } }, tokens: { prompt: 3, completion: 0, total: 3 } });
    expect((log('e')?.output as { embeddings: number[][] }).embeddings).toEqual([expect.arrayContaining([expect.any(Number)])]);
    expect(result.cost?.total).toBeCloseTo(embedCost.total, 12);
    expect(log('d')?.output).toEqual({
      content: `${fake.url}/images/0.png`,
      image: `${fake.url}/images/0.png`,
      metadata: { model: 'dall-e-3', images: [`${fake.url}/images/0.png`], revisedPrompt: 'revised: A lighthouse at dusk' },
    });
    expect(log('g')?.output).toMatchObject({
      image: `data:image/png;base64,${Buffer.from('png-0').toString('base64')}`,
      metadata: { model: 'gpt-image-1', images: [0, 1].map((i) => `data:image/png;base64,${Buffer.from(`png-${i}`).toString('base64')}`) },
    });

    // A failed block ends the run (no error edge): one run per failure.
    const badKey = await run(graphOf({ s: S, e: { type: 'embeddings', name: 'Embed 2', values: { input: 'hello', apiKey: 'bad-key' } } }, [['s', 'e']]));
    expect(badKey).toMatchObject({ success: false, error: 'Embed 2: Incorrect API key provided' });
    const noPrompt = await run(graphOf({ s: S, i: { type: 'image_generator', name: 'Image 3', values: { prompt: '', model: 'dall-e-3', apiKey: 'sk-img' } } }, [['s', 'i']]));
    expect(noPrompt).toMatchObject({ success: false, error: 'Image 3: Prompt is required' });
  });
});
