import { randomUUID } from 'node:crypto';
import { getBlock } from '@weft/catalog';
import type { DecideContext } from '@weft/workflow';
import { elkLayout } from '@weft/workflow/layout';

/** The decide context in production: wall clock, random ids, the block catalogue, ELK for importYaml's automatic layout. */
export function productionContext(workflowId: string): DecideContext {
  return { now: Date.now(), newId: randomUUID, blockDefinition: getBlock, workflowId, layout: elkLayout };
}
