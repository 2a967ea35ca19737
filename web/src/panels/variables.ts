import type { CommandOf, Variable, VariableType } from '@weft/workflow';

/** The variable types a user can pick (§3 Workflow variable). */
export const VARIABLE_TYPES: readonly VariableType[] = ['plain', 'number', 'boolean', 'object', 'array'];

/** A variable's value as its text field shows it: strings as they are, anything else as JSON. */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined ? '' : JSON.stringify(value);
}

/** The fields of a variable a user edits, as the panel holds them. */
export type VariableFields = { name: string; variableType: VariableType; value: string };

/** The `updateVariable` command for what changed between a variable and the fields edited from it, or null when nothing did. */
export function variableUpdate(variable: Variable, fields: Partial<VariableFields>): CommandOf<'updateVariable'> | null {
  const command: CommandOf<'updateVariable'> = { type: 'updateVariable', id: variable.id };
  if (fields.name !== undefined && fields.name !== variable.name) command.name = fields.name;
  if (fields.variableType !== undefined && fields.variableType !== variable.type) command.variableType = fields.variableType;
  if (fields.value !== undefined && fields.value !== valueText(variable.value)) command.value = fields.value;
  return Object.keys(command).length > 2 ? command : null;
}
