import { clampCount, collectionItems, MAX_CONTAINER_COUNT } from '../blockValues.js';
import type { IterationContext } from '../references.js';
import type { RunnableBlock } from '../types.js';
import type { BlockRun } from './blocks.js';
import type { Frame, Resolver, Run } from './run.js';
import { runFrame, type FrameResult } from './scheduler.js';

/** What a container runs over: a count (items absent) or a collection's items. */
interface Plan {
  count: number;
  items?: unknown[];
  /** The collection as written (`<loop.items>` / `<parallel.items>`). */
  collection?: unknown;
  /** The collection as the log shows it (environment values as `{{KEY}}`). */
  logged?: unknown;
}

function loopPlan(run: Run, block: RunnableBlock, resolver: Resolver): Plan | string {
  const loops = run.args.state.loops ?? {};
  // Own keys: a loop with id `constructor` and no derived entry has none (Object's member has no loop field either).
  const derived = Object.hasOwn(loops, block.id) ? loops[block.id] : undefined;
  const data = block.data ?? {};
  const loopType = data.loopType ?? derived?.loopType ?? 'for';
  if (loopType !== 'forEach') return { count: clampCount(data.count ?? derived?.iterations) };
  return collectionPlan(resolver, data.collection ?? derived?.forEachItems ?? '', 'forEach');
}

function parallelPlan(run: Run, block: RunnableBlock, resolver: Resolver): Plan | string {
  const parallels = run.args.state.parallels ?? {};
  const derived = Object.hasOwn(parallels, block.id) ? parallels[block.id] : undefined;
  const data = block.data ?? {};
  const type = data.parallelType ?? derived?.parallelType;
  if (type === 'count') return { count: clampCount(data.count ?? derived?.count) };
  return collectionPlan(resolver, data.collection ?? derived?.distribution ?? '', 'collection');
}

/**
 * The spec bounds a loop's iterations and a parallel's branches to 1..50 (000 §5, §9); a collection
 * runs one iteration or branch per item, so a longer one is refused rather than cut short.
 */
function collectionPlan(resolver: Resolver, raw: unknown, what: 'forEach' | 'collection'): Plan | string {
  const value = resolver.resolve(raw);
  const items = collectionItems(value);
  if (!items) return `The ${what} items must be a JSON array or object, or a reference to one`;
  if (items.length > MAX_CONTAINER_COUNT) {
    return what === 'forEach'
      ? `The forEach items (collection) hold ${items.length} entries; a loop runs at most ${MAX_CONTAINER_COUNT} iterations`
      : `The parallel's collection holds ${items.length} entries; a parallel runs at most ${MAX_CONTAINER_COUNT} branches`;
  }
  return { count: items.length, items, collection: parsed(value), logged: parsed(resolver.forLog(raw)) };
}

/** A collection written as JSON text, parsed (the log's form, with `{{KEY}}` left in, may not parse: it shows as written). */
function parsed(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value.trim() || '[]') as unknown;
  } catch {
    return value;
  }
}

function childFrame(frame: Frame, run: Run, block: RunnableBlock, index: number, plan: Plan): Frame {
  const scope = run.graph.scopes.get(block.id);
  if (!scope) throw new Error(`Container ${block.name} has no body`);
  const ctx: IterationContext = { index, currentItem: plan.items ? plan.items[index] : index, items: plan.items ? plan.collection : undefined };
  const isLoop = block.type === 'loop';
  return {
    scope,
    outputs: new Map(),
    parent: frame,
    ...(isLoop ? { loop: ctx } : frame.loop ? { loop: frame.loop } : {}),
    ...(!isLoop ? { parallel: ctx } : frame.parallel ? { parallel: frame.parallel } : {}),
    loopIteration: isLoop ? [...frame.loopIteration, index] : frame.loopIteration,
    parallelBranch: isLoop ? frame.parallelBranch : [...frame.parallelBranch, index],
  };
}

/** Body outputs of the last iteration or branch stay readable after the container. */
function keepLast(frame: Frame, body: Frame | undefined): void {
  if (!body) return;
  for (const [id, stored] of body.outputs) frame.outputs.set(id, stored);
}

const resultOf = (r: FrameResult): unknown => (r.success ? (r.last?.value ?? null) : { error: r.error });

/**
 * Runs a loop (iterations one after another) or a parallel (branches at once, every branch
 * finishing); output `results` in order. A failed iteration fails the loop; failed branches leave
 * `{error}` in their slots and fail the parallel after all branches ended.
 */
export async function runContainer(run: Run, frame: Frame, block: RunnableBlock, resolver: Resolver): Promise<BlockRun> {
  const plan = block.type === 'loop' ? loopPlan(run, block, resolver) : parallelPlan(run, block, resolver);
  if (typeof plan === 'string') return { exec: { success: false, output: null, error: plan }, input: undefined };
  const input = { count: plan.count, ...(plan.items ? { items: plan.logged } : {}) };
  const results: unknown[] = [];
  const finished: FrameResult[] = [];
  if (block.type === 'loop') {
    let lastBody: Frame | undefined;
    for (let i = 0; i < plan.count && !run.halted; i++) {
      lastBody = childFrame(frame, run, block, i, plan);
      const r = await runFrame(run, lastBody);
      finished.push(r);
      if (!r.success) {
        return { exec: { success: false, output: { results }, error: r.error ?? 'failed', message: r.error ?? 'failed' }, input };
      }
      results.push(resultOf(r));
    }
    keepLast(frame, lastBody);
  } else {
    const bodies = Array.from({ length: plan.count }, (_, i) => childFrame(frame, run, block, i, plan));
    finished.push(...(await Promise.all(bodies.map((b) => runFrame(run, b)))));
    results.push(...finished.map(resultOf));
    keepLast(frame, bodies[bodies.length - 1]);
    const failed = finished.find((r) => !r.success);
    if (failed) return { exec: { success: false, output: { results }, error: failed.error ?? 'failed', message: failed.error ?? 'failed' }, input };
  }
  return { exec: { success: true, output: { results } }, input };
}
