import { isCancellation } from '@temporalio/workflow';
import { getBlock } from '@weft/catalog';
import type { BlockOutcome, BlockRunContext, RunnableBlock } from '../types.js';
import { callContext, modelCall } from './activities.js';
import { DEFAULT_MODEL } from './agent.block.js';
import { failed, fromCall, fromError, modelOutput } from './outcome.js';
import { num, text } from './params.js';

/** Router temperature default (§2). */
export const ROUTER_DEFAULT_TEMPERATURE = 0.1;

/** The routing instructions: the user's prompt and the connected blocks to choose from. */
export function routerPrompt(prompt: string, targets: BlockRunContext['targets']): string {
  const list = targets
    .map((t) => `ID: ${t.blockId}\nType: ${t.blockType}\nTitle: ${t.blockTitle}\nDescription: ${getBlock(t.blockType)?.description ?? ''}`)
    .join('\n---\n');
  return `You are an intelligent routing agent responsible for directing workflow requests to the most appropriate block. Analyze the request and pick the single best destination among the available blocks.

Routing request: ${prompt}

Available target blocks:
${list}

Response format: answer ONLY with the destination block's ID, nothing else: no punctuation, no explanation.`;
}

/** The target the answer names: by id first, then by title (case and quotes ignored). */
export function chooseTarget(answer: string, targets: BlockRunContext['targets']): BlockRunContext['targets'][number] | undefined {
  const said = answer.trim().replace(/^["'`]+|["'`.]+$/g, '').trim().toLowerCase();
  return targets.find((t) => t.blockId.toLowerCase() === said) ?? targets.find((t) => t.blockTitle.trim().toLowerCase() === said);
}

/** Router: a model picks one of the connected blocks. Output content, model, tokens, cost, selectedPath. */
export async function runRouter(block: RunnableBlock, params: Record<string, unknown>, ctx: BlockRunContext): Promise<BlockOutcome> {
  if (ctx.targets.length === 0) return failed('Router has no connected blocks to choose from');
  const prompt = text(params.userPrompt) || text(params.prompt);
  const model = text(params.model) || DEFAULT_MODEL;
  let out;
  let attempts;
  try {
    ({ value: out, attempts } = await modelCall(ctx, (models) =>
      models.callModel({
        model,
        systemPrompt: routerPrompt(prompt, ctx.targets),
        messages: [{ role: 'user', content: prompt || 'Choose the destination block.' }],
        temperature: num(params.temperature) ?? ROUTER_DEFAULT_TEMPERATURE,
        ...(text(params.apiKey) ? { apiKey: text(params.apiKey) } : {}),
        context: callContext(block, ctx),
      }),
    ));
  } catch (err) {
    if (isCancellation(err)) throw err;
    return fromError(err);
  }
  const target = chooseTarget(out.content, ctx.targets);
  if (!target) {
    const names = ctx.targets.map((t) => `${t.blockTitle} (${t.blockId})`).join(', ');
    const error = `Router chose "${out.content.trim()}", which is not a block connected to it (connected: ${names})`;
    return { ...fromCall(out, modelOutput(out), attempts), success: false, error };
  }
  return fromCall(out, { ...modelOutput(out), selectedPath: { blockId: target.blockId, blockType: target.blockType, blockTitle: target.blockTitle } }, attempts);
}
