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
