import type { Page } from 'playwright-core';

/** What a canvas shows, in a form that compares: blocks by id with name and position, edges by id with their label. */
export interface CanvasView {
  version: number;
  blocks: Array<{ id: string; name: string; x: number; y: number }>;
  edges: Array<{ id: string; label: string }>;
}

/** The workflow as GET /api/workflows/{id} answers it (the fields a canvas draws). */
export interface WorkflowAnswer {
  version: number;
  state: {
    blocks: Record<string, { id: string; name: string; position: { x: number; y: number } }>;
    edges: Array<{ id: string; source: string; target: string }>;
  };
}

const byId = <T extends { id: string }>(a: T, b: T) => a.id.localeCompare(b.id);

/** Reads the canvas of `page` from the DOM: the header's version, node transforms and names, edge labels. */
export async function readCanvas(page: Page): Promise<CanvasView> {
  const header = (await page.locator('.canvas-header').getByText(/^version \d+$/).textContent()) ?? '';
  const blocks = [];
  for (const node of await page.locator('.react-flow__node').all()) {
    const style = (await node.getAttribute('style')) ?? '';
    const at = /translate\(([-\d.]+)px, ?([-\d.]+)px\)/.exec(style);
    blocks.push({
      id: (await node.getAttribute('data-id')) ?? '',
      name: (await node.locator('.block-name').textContent()) ?? '',
      x: Number(at?.[1]),
      y: Number(at?.[2]),
    });
  }
  const edges = [];
  for (const edge of await page.locator('.react-flow__edge').all()) {
    edges.push({ id: ((await edge.getAttribute('data-testid')) ?? '').replace(/^rf__edge-/, ''), label: (await edge.getAttribute('aria-label')) ?? '' });
  }
  return { version: Number(header.replace('version ', '')), blocks: blocks.sort(byId), edges: edges.sort(byId) };
}

/** The view a canvas should show of a workflow as the server answers it. */
export function expectedCanvas(workflow: WorkflowAnswer): CanvasView {
  const { blocks, edges } = workflow.state;
  const name = (id: string) => blocks[id]?.name ?? id;
  return {
    version: workflow.version,
    blocks: Object.values(blocks)
      .map((b) => ({ id: b.id, name: b.name, x: b.position.x, y: b.position.y }))
      .sort(byId),
    edges: edges.map((e) => ({ id: e.id, label: `Connection from ${name(e.source)} to ${name(e.target)}` })).sort(byId),
  };
}
