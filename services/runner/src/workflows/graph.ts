import type { RunnableState } from './types.js';

/**
 * The enabled blocks reachable from the starter, in an order where every block comes after the
 * blocks that feed it (Kahn's algorithm over the reachable subgraph).
 */
export function executionOrder(state: RunnableState): string[] {
  const starter = Object.values(state.blocks).find((b) => b.type === 'starter');
  if (!starter) throw new Error('The workflow has no starter block');
  const enabled = (id: string) => state.blocks[id]?.enabled !== false;
  const out = new Map<string, string[]>();
  for (const e of state.edges) {
    if (!enabled(e.source) || !enabled(e.target)) continue;
    out.set(e.source, [...(out.get(e.source) ?? []), e.target]);
  }
  const reachable = new Set<string>([starter.id]);
  const stack = [starter.id];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    for (const next of out.get(id) ?? []) {
      if (!reachable.has(next)) {
        reachable.add(next);
        stack.push(next);
      }
    }
  }
  const indegree = new Map<string, number>([...reachable].map((id) => [id, 0]));
  for (const [source, targets] of out) {
    if (!reachable.has(source)) continue;
    for (const t of targets) indegree.set(t, (indegree.get(t) ?? 0) + 1);
  }
  const ready = [starter.id];
  const order: string[] = [];
  while (ready.length > 0) {
    const id = ready.shift() as string;
    order.push(id);
    for (const t of out.get(id) ?? []) {
      const left = (indegree.get(t) ?? 0) - 1;
      indegree.set(t, left);
      if (left === 0) ready.push(t);
    }
  }
  if (order.length !== reachable.size) throw new Error('The workflow has a cycle outside a loop block');
  return order;
}
