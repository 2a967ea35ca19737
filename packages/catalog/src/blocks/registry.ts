import type { BlockConfig } from '../types.js';
import { agentBlock } from './agent.block.js';
import { apiBlock } from './api.block.js';
import { conditionBlock } from './condition.block.js';
import { functionBlock } from './function.block.js';
import { responseBlock } from './response.block.js';
import { routerBlock } from './router.block.js';
import { starterBlock } from './starter.block.js';

const BLOCKS: readonly BlockConfig[] = [
  agentBlock,
  apiBlock,
  conditionBlock,
  functionBlock,
  responseBlock,
  routerBlock,
  starterBlock,
];

const BY_TYPE: ReadonlyMap<string, BlockConfig> = new Map(BLOCKS.map((b) => [b.type, b]));

/** The block definition of a type id, if the catalogue knows it. */
export function getBlock(type: string): BlockConfig | undefined {
  return BY_TYPE.get(type);
}

/** Every block definition, sorted by type id. */
export function listBlocks(): BlockConfig[] {
  return [...BLOCKS].sort((a, b) => a.type.localeCompare(b.type));
}

/** Whether a type id names a catalogue block. */
export function isKnownBlockType(type: string): boolean {
  return BY_TYPE.has(type);
}
