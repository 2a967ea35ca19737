import type { BlockOutcome, BlockRunContext, RunnableBlock } from '../types.js';
import { runAgent } from './agent.block.js';
import { runEvaluator } from './evaluator.block.js';
import { runHuggingface } from './huggingface.block.js';
import { runEmbeddings, runImageGenerator } from './media.block.js';
import { runRouter } from './router.block.js';
import { runTranslate } from './translate.block.js';
import { runVision } from './vision.block.js';

type ModelBlockRunner = (block: RunnableBlock, params: Record<string, unknown>, ctx: BlockRunContext) => Promise<BlockOutcome>;

/** Thinking: the thought is acknowledged as it is (no model call). */
const runThinking: ModelBlockRunner = (_block, params) =>
  Promise.resolve({ success: true, output: { acknowledgedThought: typeof params.thought === 'string' ? params.thought : JSON.stringify(params.thought ?? '') } });

const RUNNERS: Record<string, ModelBlockRunner> = {
  agent: runAgent,
  router: runRouter,
  evaluator: runEvaluator,
  translate: runTranslate,
  vision: runVision,
  thinking: runThinking,
  image_generator: runImageGenerator,
  embeddings: runEmbeddings,
  huggingface: runHuggingface,
};

/** Block types run by the model layer. */
export const MODEL_BLOCK_TYPES: ReadonlySet<string> = new Set(Object.keys(RUNNERS));

/** Runs one model block with its resolved parameters inside the run's workflow; failures are values with the spec's messages. */
export function runModelBlock(block: RunnableBlock, params: Record<string, unknown>, ctx: BlockRunContext): Promise<BlockOutcome> {
  const run = RUNNERS[block.type];
  if (!run) return Promise.resolve({ success: false, output: null, error: `Block type '${block.type}' cannot run yet` });
  return run(block, params, ctx);
}

export { modelToolLoop } from './toolLoop.workflow.js';
export type { ModelToolLoopArgs } from './toolLoop.workflow.js';
export type { ToolLoopResult, ToolCallLog, LoopTool } from '@weft/catalog';
