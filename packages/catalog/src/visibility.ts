import type { BlockConfig, ConditionValue, SubBlockCondition, SubBlockConfig, SubBlockMode } from './types.js';

type Test = { field: string; value: ConditionValue | readonly ConditionValue[] | undefined; startsWith?: string; not?: boolean };

/** A field's current value, or its default when the user has not set it. */
function currentValue(block: BlockConfig, values: Record<string, unknown>, field: string): unknown {
  const value = values[field];
  if (value !== undefined && value !== null) return value;
  return block.subBlocks.find((s) => s.id === field)?.defaultValue;
}

function matches(block: BlockConfig, values: Record<string, unknown>, test: Test): boolean {
  const actual = currentValue(block, values, test.field);
  const expected = test.value;
  const prefixed = test.startsWith !== undefined && typeof actual === 'string' && actual.trim().toLowerCase().startsWith(test.startsWith.toLowerCase());
  const hit = prefixed || (Array.isArray(expected) ? expected.some((v) => v === actual) : expected === actual);
  return test.not === true ? !hit : hit;
}

/** Whether a condition holds for the given values (both its own test and its `and` test). */
export function conditionHolds(block: BlockConfig, condition: SubBlockCondition, values: Record<string, unknown>): boolean {
  if (!matches(block, values, condition)) return false;
  return condition.and ? matches(block, values, condition.and) : true;
}

/** Whether a field belongs to the form in this mode: basic-only and advanced-only fields show in their mode. */
function inMode(subBlock: SubBlockConfig, mode: SubBlockMode): boolean {
  return subBlock.mode === undefined || subBlock.mode === mode;
}

/**
 * The sub-blocks a form shows for the given values and mode: hidden fields never, mode-bound fields
 * only in their mode, conditional fields only when their condition holds (unset fields count at
 * their default value).
 */
export function visibleSubBlocks(block: BlockConfig, values: Record<string, unknown>, mode: SubBlockMode): SubBlockConfig[] {
  return block.subBlocks.filter(
    (s) => s.hidden !== true && inMode(s, mode) && (s.condition === undefined || conditionHolds(block, s.condition, values)),
  );
}
