import type { CommandOf } from '../commands.js';
import type { DecideContext } from '../context.js';
import { WorkflowError } from '../errors.js';
import type { WorkflowEvent } from '../events.js';
import type { WorkflowState } from '../model/state.js';

/** Replace the graph with a YAML document as one undoable event. */
function decideImportYaml(
  _state: WorkflowState,
  _command: CommandOf<'importYaml'>,
  _ctx: DecideContext,
): WorkflowEvent[] {
  throw new WorkflowError('validation', 'YAML import is not available yet');
}

export { decideImportYaml };
