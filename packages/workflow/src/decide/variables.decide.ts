import type { CommandOf } from '../commands.js';
import type { DecideContext } from '../context.js';
import { WorkflowError } from '../errors.js';
import type { WorkflowEvent } from '../events.js';
import { hasOwnKey, ownValue, setOwn } from '../model/ownKeys.js';
import { defaultVariableName, keptVariableName, makeVariable, uniqueVariableName } from '../model/variables.js';
import type { Variable, WorkflowState } from '../model/state.js';
import { variableReferenceRewrites } from './references.js';

type VariableCommand = CommandOf<'addVariable' | 'updateVariable' | 'deleteVariable' | 'duplicateVariable' | 'replaceVariables'>;

function requireVariable(state: WorkflowState, id: string): Variable {
  const variable = ownValue(state.variables, id);
  if (variable === undefined) throw new WorkflowError('not_found', `Variable ${id} not found`);
  return variable;
}

function requireFreeVariableId(state: WorkflowState, id: string): string {
  if (hasOwnKey(state.variables, id)) throw new WorkflowError('conflict', `Variable id ${id} is already in use`);
  return id;
}

/** The §5 naming rules for an added variable: default `variableN`, then ' (n)' against the others. */
function addedVariableName(name: string, others: readonly Variable[]): string {
  return uniqueVariableName(defaultVariableName(name, others), others);
}

/** A rename keeps the name typed (`variable9` too; empty gets the next `variableN`), deduped against the others. */
function renamedVariableName(name: string, others: readonly Variable[]): string {
  return uniqueVariableName(keptVariableName(name, others), others);
}

/**
 * A saved list (§7 POST …/variables, a duplicate's copy) keeps its names, so `<variable.variable3>`
 * still resolves; an empty name takes the next `variableN` free in the whole list, a repeat is deduped.
 */
function savedVariables(inputs: CommandOf<'replaceVariables'>['variables'], workflowId: string, newId: () => string): Record<string, Variable> {
  const variables: Record<string, Variable> = {};
  const named = inputs.filter((input) => input.name.trim() !== '');
  for (const input of inputs) {
    const id = input.id ?? newId();
    const placed = Object.values(variables);
    const name = uniqueVariableName(keptVariableName(input.name, [...named, ...placed]), placed);
    setOwn(variables, id, makeVariable({ id, workflowId, name, type: input.type, value: input.value }));
  }
  return variables;
}

function decideUpdateVariable(state: WorkflowState, command: CommandOf<'updateVariable'>, at: number): WorkflowEvent[] {
  const current = requireVariable(state, command.id);
  const others = Object.values(state.variables).filter((v) => v.id !== current.id);
  const renamed = command.name !== undefined && command.name !== current.name;
  const name = renamed ? renamedVariableName(command.name ?? '', others) : current.name;
  const variable = makeVariable({
    ...current,
    name,
    type: command.variableType ?? current.type,
    value: command.value === undefined ? current.value : command.value,
  });
  const rewrites = renamed ? variableReferenceRewrites(state, current.name, name) : [];
  return [{ type: 'variableUpdated', at, variable, rewrites }];
}

/** Variable commands; they do not push history (§4 Undo restores blocks, edges, loops, parallels, values). */
function decideVariable(state: WorkflowState, command: VariableCommand, ctx: DecideContext): WorkflowEvent[] {
  const at = ctx.now;
  const workflowId = ctx.workflowId ?? '';
  const all = Object.values(state.variables);
  switch (command.type) {
    case 'addVariable': {
      const id = requireFreeVariableId(state, command.id ?? ctx.newId());
      const name = addedVariableName(command.name, all);
      const variable = makeVariable({ id, workflowId, name, type: command.variableType, value: command.value });
      return [{ type: 'variableAdded', at, variable }];
    }
    case 'updateVariable':
      return decideUpdateVariable(state, command, at);
    case 'deleteVariable':
      requireVariable(state, command.id);
      return [{ type: 'variableDeleted', at, id: command.id }];
    case 'duplicateVariable': {
      const source = requireVariable(state, command.id);
      const id = requireFreeVariableId(state, command.newId ?? ctx.newId());
      const name = uniqueVariableName(`${source.name} (copy)`, all);
      const variable = makeVariable({ ...structuredClone(source), id, name });
      return [{ type: 'variableDuplicated', at, sourceId: source.id, variable }];
    }
    case 'replaceVariables':
      return [{ type: 'variablesReplaced', at, variables: savedVariables(command.variables, workflowId, () => ctx.newId()) }];
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

export { decideVariable };
