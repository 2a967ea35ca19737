import type { ConditionValue, SubBlockCondition, SubBlockConfig, SubBlockOption } from '../types.js';

/** Builds options from `[id, label]` pairs, or from bare ids used as their own label. */
export function options(...items: ReadonlyArray<string | readonly [string, string]>): SubBlockOption[] {
  return items.map((item) => (typeof item === 'string' ? { id: item, label: item } : { id: item[0], label: item[1] }));
}

/** Condition: shown when `field` has `value` (or one of the values). */
export function when(field: string, value: ConditionValue | readonly ConditionValue[]): SubBlockCondition {
  return { field, value };
}

/** Condition: shown when `field` does not have `value`. */
export function unless(field: string, value: ConditionValue | readonly ConditionValue[]): SubBlockCondition {
  return { field, value, not: true };
}

/** The usual `operation` dropdown, defaulting to its first option. */
export function operationField(items: ReadonlyArray<readonly [string, string]>): SubBlockConfig {
  const opts = options(...items);
  return { id: 'operation', title: 'Operation', type: 'dropdown', layout: 'full', options: opts, defaultValue: opts[0]?.id };
}

/** A masked secret field; block outputs cannot be dropped into it when `droppable` is false. */
export function secretField(
  id: string,
  title: string,
  placeholder: string,
  extra: Partial<SubBlockConfig> = {},
): SubBlockConfig {
  return { id, title, type: 'short-input', layout: 'full', placeholder, password: true, ...extra };
}

/** An OAuth account picker. */
export function credentialField(
  provider: string,
  serviceId: string,
  title: string,
  scopes: readonly string[],
  extra: Partial<SubBlockConfig> = {},
): SubBlockConfig {
  return {
    id: 'credential',
    title,
    type: 'oauth-input',
    layout: 'full',
    provider,
    serviceId,
    requiredScopes: scopes,
    placeholder: `Select ${title.replace(/ Account$/, '')} account`,
    ...extra,
  };
}

/** A short text field. */
export function shortInput(id: string, title: string, placeholder: string, extra: Partial<SubBlockConfig> = {}): SubBlockConfig {
  return { id, title, type: 'short-input', layout: 'full', placeholder, ...extra };
}

/** A long text field. */
export function longInput(id: string, title: string, placeholder: string, extra: Partial<SubBlockConfig> = {}): SubBlockConfig {
  return { id, title, type: 'long-input', layout: 'full', placeholder, ...extra };
}

/** A dropdown with the given options, defaulting to the first unless told. */
export function dropdown(
  id: string,
  title: string,
  items: ReadonlyArray<string | readonly [string, string]>,
  extra: Partial<SubBlockConfig> = {},
): SubBlockConfig {
  const opts = options(...items);
  return { id, title, type: 'dropdown', layout: 'full', options: opts, defaultValue: opts[0]?.id, ...extra };
}

/**
 * A selector shown in basic mode with its manual-id twin shown in advanced mode
 * (§2: basic picks from a selector, advanced types an id).
 */
export function selectorPair(
  selector: SubBlockConfig,
  manual: { id: string; title: string; placeholder: string },
): SubBlockConfig[] {
  const base = { ...selector, mode: 'basic' as const };
  const typed: SubBlockConfig = {
    id: manual.id,
    title: manual.title,
    type: 'short-input',
    layout: selector.layout ?? 'full',
    placeholder: manual.placeholder,
    mode: 'advanced',
  };
  if (selector.condition) typed.condition = selector.condition;
  return [base, typed];
}
