import { ModelProviderError, ModelRequestError, toProviderError } from '../errors.js';
import { newToolCallId, parseArguments, toolCallIdsOf, type AdapterResult, type ProviderAdapter } from '../types.js';
import { hfRouterModel } from '../../tools/services/ai/ai.tools.js';
import { compatibleBody, settleFinish } from './openaiCompatible.js';

/** Default inference provider of the Hugging Face block (§2). */
export const HF_DEFAULT_PROVIDER = 'novita';

interface HfAnswer {
  model?: string;
  choices?: Array<{ message?: { content?: string | null; refusal?: string | null; tool_calls?: Array<{ id?: string; function: { name: string; arguments: string } }> }; finish_reason?: string | null }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
  error?: { message?: string } | string;
}

function errorDetail(body: HfAnswer | undefined, text: string): string {
  if (typeof body?.error === 'string') return body.error;
  return body?.error?.message ?? text.slice(0, 200);
}

/**
 * Hugging Face's router chat completions (`POST {base}/v1/chat/completions`, base URL
 * `WEFT_HUGGINGFACE_BASE_URL`), the inference provider named in the model as `<model>:<provider>`
 * (the huggingface_chat tool's hfRouterModel; a model that already names one is sent as typed). Errors: 'Hugging Face chat completion failed: …' and
 * 'Invalid response format from Hugging Face API'. Answers are read whole (the block does not stream).
 */
export const huggingfaceAdapter: ProviderAdapter = {
  id: 'huggingface',
  async call(req, config, sink, signal): Promise<AdapterResult> {
    const provider = req.hfProvider?.trim() || HF_DEFAULT_PROVIDER;
    // The model's ':<provider>' suffix: a name, nothing the router could read as another model or route.
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(provider)) throw new ModelRequestError(`Invalid Hugging Face provider: ${provider}`);
    const opts = { provider: 'huggingface' as const, wireModel: hfRouterModel(req.model, provider), toolUsageControl: true };
    const body = { ...compatibleBody(req, opts), stream: false };
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${config.baseUrls.huggingface}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${req.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal,
      });
      text = await res.text();
    } catch (err) {
      throw toProviderError(err, 'huggingface');
    }
    let parsed: HfAnswer | undefined;
    try {
      parsed = JSON.parse(text) as HfAnswer;
    } catch {
      parsed = undefined;
    }
    if (!res.ok) throw new ModelProviderError(`Hugging Face chat completion failed: ${errorDetail(parsed, text)}`, 'huggingface', res.status);
    const message = parsed?.choices?.[0]?.message;
    if (!parsed || !Array.isArray(parsed.choices) || !message) throw new ModelProviderError('Invalid response format from Hugging Face API', 'huggingface', res.status);
    const taken = toolCallIdsOf(req.messages);
    const u = parsed.usage;
    const prompt = u?.prompt_tokens ?? 0;
    const completion = u?.completion_tokens ?? 0;
    // A call the provider gives no id gets an 8-character one (spec 000 §9).
    const toolCalls = (message.tool_calls ?? []).map((c) => ({ id: c.id || newToolCallId(taken), name: c.function.name, arguments: parseArguments(c.function.arguments) }));
    const cut = settleFinish(parsed.choices[0]?.finish_reason, { content: message.content ?? '', calls: toolCalls, refusal: message.refusal }, opts, sink);
    return {
      content: message.content ?? '',
      model: parsed.model ?? req.model,
      toolCalls,
      ...cut,
      ...(u ? { tokens: { prompt, completion, total: u.total_tokens ?? prompt + completion } } : {}),
    };
  },
};
