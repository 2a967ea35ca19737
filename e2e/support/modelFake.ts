import { createOpenAIFake, type FakeModelTurn, type OpenAIFake, type RecordedRequest } from '@weft/testkit';

/** The model the stack's fake Ollama server lists (`GET /api/tags`). */
export const LOCAL_MODEL = 'llama3.2:latest';

/** What a test writes in a user prompt to make the stack's fake model call a tool first. */
export const USE_TOOL_MARK = '[use-tool]';
/** The fake model's final answer after a tool ran (streamed word by word). */
export const FINAL_ANSWER = 'Saved the launch date for you.';

/** The stack's AZURE_OPENAI_API_KEY (tests check no request carries it to a typed endpoint). */
export const OPERATOR_AZURE_KEY = 'operator-azure-e2e';

/** A turn a test scripts over HTTP (`/_fake/script`): a fake turn, optionally held mid-stream (`holdAt`). */
export type ScriptedTurn = Omit<FakeModelTurn, 'sseGate' | 'onSseEvent'> & { holdAt?: number };

type ChatBody = { messages?: Array<{ role?: string; content?: unknown }>; tools?: Array<{ function?: { name?: string } }> };

/**
 * The stack's model providers: an OpenAI-compatible fake on 127.0.0.1 the integrations service
 * reaches through the providers' base URL variables. Scripted by the request itself, since the tests run in other
 * processes: a user prompt carrying USE_TOOL_MARK gets a call of the first offered tool (role and
 * content arguments, or a JSON body for an API block) until a tool result is in the conversation, then FINAL_ANSWER; anything else
 * gets the fake's default answer. `GET /_fake/chats` lists the chat requests received (headers that carry keys, path, query, body, and
 * `abandoned`: the client closed the connection before the answer ended).
 */
/** The gate of a held turn being served: open at once if a release came ahead of it, else queued for the next release. */
function gateOf(script: { held: Array<() => void>; releasedAhead: number }): Promise<void> {
  if (script.releasedAhead > 0) {
    script.releasedAhead -= 1;
    return Promise.resolve();
  }
  return new Promise<void>((resolve) => script.held.push(resolve));
}

export async function startModelFake(): Promise<{ fake: OpenAIFake; env: Record<string, string> }> {
  const fake = await createOpenAIFake({ localModels: [LOCAL_MODEL] });
  // Scripts other test processes register (POST /_fake/script {marker, turns}): a chat whose user messages
  // carry the marker gets the script's turns in order, then its last turn again. A streamed turn with
  // `holdAt: n` stops before its SSE event n (0 is the role chunk, 1 the first word) until
  // POST /_fake/release {marker}: a test sees what streamed so far, with no race against the rest.
  // Each served turn with `holdAt` has its own gate; a release lets go the oldest held one (or, with
  // none held, the next one served).
  const scripts = new Map<string, { turns: ScriptedTurn[]; served: number; held: Array<() => void>; releasedAhead: number }>();
  fake.server.on('POST', '/_fake/script', (req) => {
    const { marker, turns } = (req.body ?? {}) as { marker?: string; turns?: ScriptedTurn[] };
    if (!marker || !Array.isArray(turns) || turns.length === 0) return { status: 400, json: { error: 'marker and turns are required' } };
    scripts.set(marker, { turns, served: 0, held: [], releasedAhead: 0 });
    return { json: { ok: true } };
  });
  fake.server.on('POST', '/_fake/release', (req) => {
    const { marker } = (req.body ?? {}) as { marker?: string };
    const script = marker === undefined ? undefined : scripts.get(marker);
    if (!script) return { status: 404, json: { error: `no script with marker ${String(marker)}` } };
    const letGo = script.held.shift();
    if (letGo) letGo();
    else script.releasedAhead += 1;
    return { json: { ok: true } };
  });
  fake.fallback((req: RecordedRequest): FakeModelTurn => {
    const body = (req.body ?? {}) as ChatBody;
    const messages = body.messages ?? [];
    const userText = messages.filter((m) => m.role === 'user').map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
    for (const [marker, script] of scripts) {
      if (!userText.includes(marker)) continue;
      const turn = script.turns[Math.min(script.served, script.turns.length - 1)];
      script.served += 1;
      if (!turn) continue;
      const { holdAt, ...rest } = turn;
      if (holdAt === undefined) return rest;
      const gate = gateOf(script);
      return { ...rest, sseGate: (index) => (index === holdAt ? gate : undefined) };
    }
    const wantsTool = messages.some((m) => m.role === 'user' && typeof m.content === 'string' && m.content.includes(USE_TOOL_MARK));
    const toolName = body.tools?.[0]?.function?.name;
    if (!wantsTool) return { content: 'Hello from the fake model.' };
    if (toolName && !messages.some((m) => m.role === 'tool')) {
      // An API block as the tool gets a JSON body; any other tool (a memory block) a role and content.
      const args = toolName === 'http_request' ? { body: { note: 'The launch is on Friday' } } : { role: 'user', content: 'The launch is on Friday' };
      return { toolCalls: [{ name: toolName, arguments: args }], usage: { prompt: 10, completion: 5 } };
    }
    return { content: FINAL_ANSWER, usage: { prompt: 1000, completion: 100 } };
  });
  fake.server.on('GET', '/_fake/chats', () => ({
    json: fake.chatRequests().map((r) => ({ authorization: r.headers.authorization ?? null, apiKey: r.headers['api-key'] ?? null, path: r.path, query: r.query, body: r.body, abandoned: r.abandoned })),
  }));
  // Every provider points at the fake, so no run of the suite can reach a real provider.
  const env = {
    WEFT_OPENAI_BASE_URL: fake.baseUrl,
    WEFT_DEEPSEEK_BASE_URL: fake.baseUrl,
    WEFT_XAI_BASE_URL: fake.baseUrl,
    WEFT_CEREBRAS_BASE_URL: fake.baseUrl,
    WEFT_GROQ_BASE_URL: `${fake.url}/openai/v1`,
    WEFT_HUGGINGFACE_BASE_URL: fake.url,
    WEFT_ANTHROPIC_BASE_URL: fake.url,
    WEFT_GEMINI_BASE_URL: `${fake.url}/v1beta`,
    OLLAMA_URL: fake.url,
    // The operator's Azure key, which must never reach an endpoint a block types (no AZURE_OPENAI_ENDPOINT is set).
    AZURE_OPENAI_API_KEY: OPERATOR_AZURE_KEY,
  };
  return { fake, env };
}
