import type { CommandOf } from '../commands.js';
import type { DecideContext } from '../context.js';
import { WorkflowError } from '../errors.js';
import type { WorkflowEvent } from '../events.js';
import { defaultVariableName, makeVariable, uniqueVariableName } from '../model/variables.js';
import type { Variable, WorkflowState } from '../model/state.js';
import { variableReferenceRewrites } from './references.js';

type VariableCommand = CommandOf<'addVariable' | 'updateVariable' | 'deleteVariable' | 'duplicateVariable' | 'replaceVariables'>;

function requireVariable(state: WorkflowState, id: string): Variable {
  const variable = state.variables[id];
  if (variable === undefined) throw new WorkflowError('not_found', `Variable ${id} not found`);
  return variable;
}

function requireFreeVariableId(state: WorkflowState, id: string): string {
  if (state.variables[id] !== undefined) throw new WorkflowError('conflict', `Variable id ${id} is already in use`);
  return id;
}

/** The §5 naming rules: default `variableN`, then ' (n)' against the others. */
function variableName(name: string, others: readonly Variable[]): string {
  return uniqueVariableName(defaultVariableName(name, others), others);
}

function decideUpdateVariable(state: WorkflowState, command: CommandOf<'updateVariable'>, at: number): WorkflowEvent[] {
  const current = requireVariable(state, command.id);
  const others = Object.values(state.variables).filter((v) => v.id !== current.id);
  const renamed = command.name !== undefined && command.name !== current.name;
  const name = renamed ? variableName(command.name ?? '', others) : current.name;
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
      const name = variableName(command.name, all);
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
    case 'replaceVariables': {
      const variables: Record<string, Variable> = {};
      for (const input of command.variables) {
        const id = input.id ?? ctx.newId();
        const name = variableName(input.name, Object.values(variables));
        variables[id] = makeVariable({ id, workflowId, name, type: input.type, value: input.value });
      }
      return [{ type: 'variablesReplaced', at, variables }];
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

export { decideVariable };
