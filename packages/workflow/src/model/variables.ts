import type { Variable, VariableType } from './state.js';

/** A legacy 'string' type is read as 'plain' (§3 Workflow variable). */
function normalizeVariableType(type: VariableType | 'string'): VariableType {
  return type === 'string' ? 'plain' : type;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function validateObject(value: unknown): string | undefined {
  if (typeof value !== 'string') return isPlainObject(value) ? undefined : 'Not a valid object';
  const text = value.trim();
  if (!text.startsWith('{') || !text.endsWith('}')) return 'Not a valid object format';
  try {
    const parsed: unknown = JSON.parse(text);
    return isPlainObject(parsed) ? undefined : 'Not a valid object';
  } catch {
    return 'Invalid object syntax';
  }
}

function validateArray(value: unknown): string | undefined {
  if (typeof value !== 'string') return Array.isArray(value) ? undefined : 'Not a valid JSON array';
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? undefined : 'Not a valid JSON array';
  } catch {
    return 'Invalid JSON array syntax';
  }
}

/** The §5 validation message for a value of a type, or undefined when it is valid. */
function validateVariable(type: VariableType, value: unknown): string | undefined {
  switch (type) {
    case 'plain':
      return undefined;
    case 'number':
      if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'Not a valid number';
      return Number.isNaN(Number(value)) || typeof value === 'boolean' ? 'Not a valid number' : undefined;
    case 'boolean':
      if (typeof value === 'boolean') return undefined;
      return /^(true|false)$/i.test(String(value).trim()) ? undefined : 'Expected "true" or "false"';
    case 'object':
      return validateObject(value);
    case 'array':
      return validateArray(value);
    default: {
      const unreachable: never = type;
      return unreachable;
    }
  }
}

const DEFAULT_NAME = /^variable(\d+)$/;

type Named = Pick<Variable, 'name'>;

/** An empty or `variableN` name becomes the next free `variableN` (§5 Variable names: the rule for adding). */
function defaultVariableName(name: string, others: readonly Named[]): string {
  if (name.trim() !== '' && !DEFAULT_NAME.test(name)) return name;
  const numbers = others.map((v) => Number(DEFAULT_NAME.exec(v.name)?.[1] ?? 0));
  return `variable${Math.max(0, ...numbers) + 1}`;
}

/**
 * A name the user typed or a saved list holds is kept, `variableN` too (§5's variableN rule is for
 * adding); only an empty one becomes the next free `variableN`.
 */
function keptVariableName(name: string, others: readonly Named[]): string {
  return name.trim() === '' ? defaultVariableName('', others) : name;
}

/** A name taken by another variable gets ' (1)', ' (2)'… (§5 Variable names). */
function uniqueVariableName(name: string, others: readonly Named[]): string {
  const taken = new Set(others.map((v) => v.name));
  let candidate = name;
  for (let n = 1; taken.has(candidate); n++) candidate = `${name} (${n})`;
  return candidate;
}

/** A variable with its type normalized and its validation message set or absent. */
function makeVariable(fields: Omit<Variable, 'validationError' | 'type'> & { type: VariableType | 'string' }): Variable {
  const type = normalizeVariableType(fields.type);
  const validationError = validateVariable(type, fields.value);
  const variable: Variable = { id: fields.id, workflowId: fields.workflowId, name: fields.name, type, value: fields.value };
  return validationError === undefined ? variable : { ...variable, validationError };
}

export { normalizeVariableType, validateVariable, defaultVariableName, keptVariableName, uniqueVariableName, makeVariable };
