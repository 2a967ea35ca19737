import type { Command } from './commands.js';
import type { BlockDefinition, DecideContext } from './context.js';
import { decideBatch } from './decide/decide.js';
import { startWorkflow } from './decide/addBlock.decide.js';
import { WorkflowError } from './errors.js';
import type { WorkflowEvent } from './events.js';
import { replay } from './evolve/evolve.js';
import type { WorkflowState } from './model/state.js';

/** A small catalogue standing in for `@weft/catalog` in tests. */
const definitions: Record<string, BlockDefinition> = {
  starter: {
    subBlocks: [
      { id: 'startWorkflow', type: 'dropdown', defaultValue: 'manual' },
      { id: 'webhookPath', type: 'short-input' },
      { id: 'scheduleType', type: 'dropdown', defaultValue: 'daily' },
      { id: 'timezone', type: 'dropdown', defaultValue: 'UTC' },
    ],
    outputs: { input: 'any' },
  },
  function: { subBlocks: [{ id: 'code', type: 'code', defaultValue: '' }], outputs: { result: 'any', stdout: 'string' } },
  agent: {
    subBlocks: [
      { id: 'systemPrompt', type: 'long-input' },
      { id: 'userPrompt', type: 'long-input' },
      { id: 'model', type: 'combobox', defaultValue: 'gpt-4o' },
      { id: 'memories', type: 'short-input' },
      { id: 'tools', type: 'tool-input', defaultValue: [] },
    ],
    outputs: { content: 'string', model: 'string', tokens: 'any' },
  },
  api: {
    subBlocks: [
      { id: 'url', type: 'short-input' },
      { id: 'method', type: 'dropdown', defaultValue: 'GET' },
      { id: 'headers', type: 'table', defaultValue: [] },
    ],
    outputs: { data: 'any', status: 'number' },
  },
};

/** A context with a fixed clock and counting ids: `id-1`, `id-2`… */
function testContext(overrides: Partial<DecideContext> = {}): DecideContext {
  let next = 0;
  return {
    now: 1_000,
    newId: () => `id-${++next}`,
    blockDefinition: (type) => definitions[type],
    workflowId: 'wf-1',
    ...overrides,
  };
}

type Outcome = { events: WorkflowEvent[]; state: WorkflowState; error?: WorkflowError };

/** Given/when/then for the decider: `given(events).when(commands)` decides and folds. */
function given(events: WorkflowEvent[]) {
  const state = replay(events);
  return {
    state,
    when(commands: Command | Command[], overrides: Partial<DecideContext> = {}): Outcome {
      const list = Array.isArray(commands) ? commands : [commands];
      try {
        const decided = decideBatch(state, list, testContext(overrides));
        return { events: decided, state: replay(decided, state) };
      } catch (error) {
        if (error instanceof WorkflowError) return { events: [], state, error };
        throw error;
      }
    },
  };
}

/** Events of a workflow that was just created, with starter block `start`. */
function started(): WorkflowEvent[] {
  return startWorkflow(testContext({ now: 500 }), 'start');
}

/** Events that create a started workflow and then apply the commands. */
function history(...commands: Command[]): WorkflowEvent[] {
  const base = started();
  const outcome = given(base).when(commands, { now: 900 });
  if (outcome.error !== undefined) throw outcome.error;
  return [...base, ...outcome.events];
}

export { definitions, testContext, given, started, history };
