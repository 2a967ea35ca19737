import { getBlock, listBlocks } from '../blocks/registry.js';
import { getTool } from '../tools/registry.js';
import type { BlockCategory, BlockConfig, BlockInput, SubBlockConfig, ToolParam, ValueType } from '../types.js';

/** A block as the copilot lists it. */
export interface BlockSummary {
  id: string;
  name: string;
  description: string;
  category: BlockCategory;
}

/** A tool as the copilot sees it inside block metadata. */
export interface ToolSummary {
  id: string;
  name: string;
  description: string;
  params: Record<string, ToolParam>;
}

/** Everything the copilot needs to place and configure a block. */
export interface BlockMetadata extends BlockSummary {
  longDescription: string;
  docsLink: string;
  inputs: Record<string, BlockInput>;
  outputs: Record<string, ValueType>;
  subBlocks: SubBlockConfig[];
  tools: ToolSummary[];
}

function summary(block: BlockConfig): BlockSummary {
  return { id: block.type, name: block.name, description: block.description, category: block.category };
}

function toolSummaries(block: BlockConfig): ToolSummary[] {
  return block.tools.access.flatMap((id) => {
    const tool = getTool(id);
    return tool ? [{ id: tool.id, name: tool.name, description: tool.description, params: tool.params }] : [];
  });
}

function metadata(block: BlockConfig): BlockMetadata {
  return {
    ...summary(block),
    longDescription: block.longDescription,
    docsLink: block.docsLink,
    inputs: block.inputs,
    outputs: block.outputs,
    subBlocks: [...block.subBlocks],
    tools: toolSummaries(block),
  };
}

/** Each block type id mapped to the tool ids it can call (copilot get_blocks_and_tools). */
export function getBlocksAndTools(): Record<string, string[]> {
  return Object.fromEntries(listBlocks().map((b) => [b.type, [...b.tools.access]]));
}

/** Metadata of the named blocks, keyed by id; unknown ids are left out (copilot get_blocks_metadata). */
export function getBlocksMetadata(blockIds: readonly string[]): Record<string, BlockMetadata> {
  const found: Record<string, BlockMetadata> = {};
  for (const id of blockIds) {
    const block = getBlock(id);
    if (block) found[id] = metadata(block);
  }
  return found;
}

/** Options of `getAllBlocks`. */
export interface GetAllBlocksOptions {
  includeDetails?: boolean;
  filterCategory?: BlockCategory | string;
}

/** Every block, optionally of one category, as summaries or with full metadata (copilot get-all-blocks). */
export function getAllBlocks(opts: GetAllBlocksOptions = {}): Array<BlockSummary | BlockMetadata> {
  const blocks = listBlocks().filter((b) => !opts.filterCategory || b.category === opts.filterCategory);
  return blocks.map((b) => (opts.includeDetails === true ? metadata(b) : summary(b)));
}
