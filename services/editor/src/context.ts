import { randomUUID } from 'node:crypto';
import { getBlock } from '@weft/catalog';
import type { DecideContext } from '@weft/workflow';

/** The decide context in production: wall clock, random ids, the block catalogue. */
export function productionContext(workflowId: string): DecideContext {
  return { now: Date.now(), newId: randomUUID, blockDefinition: getBlock, workflowId };
}
