import { isCancellation, log } from '@temporalio/workflow';
import type { BlockOutcome, BlockRunContext, RunnableBlock } from '../types.js';
import { callContext, modelCall } from './activities.js';
import { failed, fromCall, fromError, modelOutput } from './outcome.js';
import { jsonValue, parseObject, text } from './params.js';
import { checkModel } from './modelChoice.js';

/** One evaluation metric: a name, what it measures and its score range. */
export interface Metric {
  name: string;
  description: string;
  range: { min: number; max: number };
}

/** Metrics from the form (rows of name, description, range.min, range.max); rows without a name are dropped. */
export function parseMetrics(v: unknown): Metric[] | string {
  const parsed = jsonValue(v);
  if (!parsed.ok) return `Invalid metrics: ${parsed.error}`;
  if (parsed.value === undefined || parsed.value === null) return [];
  if (!Array.isArray(parsed.value)) return 'Invalid metrics: expected a list of metrics';
  const metrics: Metric[] = [];
  for (const row of parsed.value as unknown[]) {
    if (typeof row !== 'object' || row === null) continue;
    const r = row as Record<string, unknown>;
    const range = (typeof r.range === 'object' && r.range !== null ? r.range : {}) as Record<string, unknown>;
    const name = text(r.name);
    if (!name) continue;
    const min = Number(range.min ?? r['range.min'] ?? 0);
    const max = Number(range.max ?? r['range.max'] ?? 10);
    metrics.push({ name, description: text(r.description), range: { min: Number.isFinite(min) ? min : 0, max: Number.isFinite(max) ? max : 10 } });
  }
  return metrics;
}

const key = (m: Metric) => m.name.toLowerCase();

/** The evaluation instructions; the example score of each metric is the midpoint of its range (§3). */
export function evaluatorPrompt(metrics: Metric[], content: string): string {
  const list = metrics.map((m) => `"${key(m)}" (${m.range.min} to ${m.range.max}): ${m.description}`).join('\n');
  const example = Object.fromEntries(metrics.map((m) => [key(m), (m.range.min + m.range.max) / 2]));
  return `You are an objective evaluation agent. Analyze the content against the metrics below and score each one within its range.

Metrics:
${list}

Content to evaluate:
${content}

Answer ONLY with a JSON object holding one numeric score per metric, keyed by its lowercase name, for example:
${JSON.stringify(example)}`;
}

/** Evaluator: a model scores content per metric. Output content, model, tokens, cost and one score per metric. */
export async function runEvaluator(block: RunnableBlock, params: Record<string, unknown>, ctx: BlockRunContext): Promise<BlockOutcome> {
  const chosen = await checkModel(params.model, ctx);
  if (typeof chosen !== 'string' || chosen === '') return failed(chosen === '' ? 'No model selected' : chosen.error);
  const metrics = parseMetrics(params.metrics);
  if (typeof metrics === 'string') return failed(metrics);
  const content = text(params.content);
  const schema = { type: 'object', properties: Object.fromEntries(metrics.map((m) => [key(m), { type: 'number', description: m.description }])), required: metrics.map(key), additionalProperties: false };
  let out;
  let attempts;
  try {
    ({ value: out, attempts } = await modelCall(ctx, (models) =>
      models.callModel({
        model: chosen,
        systemPrompt: text(params.systemPrompt) || evaluatorPrompt(metrics, content),
        messages: [{ role: 'user', content: 'Evaluate the content and answer with the JSON scores.' }],
        temperature: 0.1,
        ...(metrics.length > 0 ? { responseFormat: { name: 'evaluation', schema } } : {}),
        ...(text(params.apiKey) ? { apiKey: text(params.apiKey) } : {}),
        context: callContext(block, ctx),
      }),
    ));
  } catch (err) {
    if (isCancellation(err)) throw err;
    return fromError(err);
  }
  const scores = parseObject(out.content);
  if (!scores) {
    // §8: content that is not JSON is logged as a warning and the raw content is used.
    log.warn('Evaluator answer is not JSON; the raw content is used', { blockId: block.id });
    return fromCall(out, modelOutput(out), attempts);
  }
  const byMetric = Object.fromEntries(metrics.map((m) => [key(m), Number(scores[key(m)] ?? scores[m.name])]).filter(([, v]) => Number.isFinite(v)));
  return fromCall(out, { ...modelOutput(out), ...byMetric }, attempts);
}
