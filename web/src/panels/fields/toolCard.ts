import { visibleSubBlocks, type SubBlockConfig } from '@weft/catalog';
import type { BlockDefinition } from '../../api';

/** A tool block's form values at their defaults, as a new block of that type starts. */
export function defaultToolParams(definition: Pick<BlockDefinition, 'subBlocks'>): Record<string, unknown> {
  return Object.fromEntries(definition.subBlocks.filter((s) => s.defaultValue !== undefined && s.defaultValue !== null).map((s) => [s.id, s.defaultValue]));
}

/**
 * The fields a tool card shows: the tool block's own form (basic mode) for its values — operation,
 * account or token, and the parameters the user fixes; those left empty the model fills.
 */
export function toolCardFields(definition: BlockDefinition, params: Record<string, unknown>): SubBlockConfig[] {
  return visibleSubBlocks(definition, params, 'basic');
}

/**
 * Blocks outside the tools category an agent may call as a tool: the runner takes any block with a
 * tool (`services/runner/src/workflows/models/agentTools.ts`); the API block's HTTP request is one
 * users look for (what the user leaves empty in its card — URL, body… — the model fills).
 */
export const AGENT_TOOL_BLOCKS: ReadonlySet<string> = new Set(['api']);

/** Whether the picker offers a block as an agent tool. */
export function isAgentToolBlock(d: Pick<BlockDefinition, 'type' | 'category' | 'hideFromToolbar' | 'tools'>): boolean {
  return (d.category === 'tools' || AGENT_TOOL_BLOCKS.has(d.type)) && !d.hideFromToolbar && d.tools.access.length > 0;
}

/**
 * How well `query` finds a tool described by `fields` (most telling first: name, then ids, then
 * descriptions): the first field holding every word of the query (in any order), undefined when none does.
 */
export function searchRank(query: string, fields: readonly string[]): number | undefined {
  const words = query.toLowerCase().split(/[\s_-]+/).filter(Boolean);
  if (words.length === 0) return 0;
  const texts = fields.map((f) => f.toLowerCase());
  const all = texts.join(' ');
  if (!words.every((w) => all.includes(w))) return undefined;
  const i = texts.findIndex((t) => words.every((w) => t.includes(w)));
  return i === -1 ? texts.length : i;
}

/** The tool blocks the picker offers for `query`, found by name, type, tool ids, description or long description; best match first. */
export function toolChoices(definitions: readonly BlockDefinition[], query: string): BlockDefinition[] {
  return definitions
    .filter(isAgentToolBlock)
    .map((d) => ({ d, rank: searchRank(query, [d.name, `${d.type} ${d.tools.access.join(' ')}`, d.description, d.longDescription]) }))
    .filter((c): c is { d: BlockDefinition; rank: number } => c.rank !== undefined)
    .sort((a, b) => a.rank - b.rank)
    .map((c) => c.d);
}
