/**
 * An editor port kept in memory for tests: the same @weft/workflow decide/evolve and YAML codec the editor
 * service runs (with its layout), versions, expected-version conflicts and idempotent command ids.
 */
import { randomUUID } from 'node:crypto';
import { getBlock } from '@weft/catalog';
import { AppError } from '@weft/platform';
import { decideAndApply, initialState, parseCommands, toYaml, WorkflowError, type WorkflowState } from '@weft/workflow';
import { elkLayout } from '@weft/workflow/layout';
import type { EditorPort } from '../ports.js';

export interface MemoryEditor extends EditorPort {
  /** The workflow's state (undo history included). */
  state(workflowId: string): WorkflowState;
  /** Commands applied, in order, per workflow. */
  applied: Array<{ workflowId: string; actorId: string; types: string[] }>;
}

export function createMemoryEditor(): MemoryEditor {
  const streams = new Map<string, { version: number; state: WorkflowState }>();
  const seen = new Map<string, number>();
  const stream = (id: string) => {
    let s = streams.get(id);
    if (!s) {
      s = { version: 0, state: initialState() };
      streams.set(id, s);
    }
    return s;
  };
  const editor: MemoryEditor = {
    applied: [],
    state: (id) => stream(id).state,
    getState(workflowId) {
      const s = stream(workflowId);
      return Promise.resolve({ version: s.version, state: { blocks: s.state.blocks, edges: s.state.edges } });
    },
    exportYaml(workflowId) {
      const s = stream(workflowId);
      return Promise.resolve(toYaml({ ...s.state }));
    },
    execute(workflowId, actorId, commands, opts = {}) {
      const s = stream(workflowId);
      const key = opts.commandId && `${workflowId}:${opts.commandId}`;
      if (key && seen.has(key)) return Promise.resolve({ version: seen.get(key) ?? s.version });
      if (opts.expectedVersion !== undefined && opts.expectedVersion !== s.version) {
        return Promise.reject(new AppError('conflict', `Expected version ${opts.expectedVersion}, the workflow is at ${s.version}`));
      }
      try {
        const parsed = parseCommands(commands);
        const { events, state } = decideAndApply(s.state, parsed, { now: Date.now(), newId: randomUUID, blockDefinition: getBlock, layout: elkLayout, workflowId });
        s.state = state;
        s.version += events.length;
        if (key) seen.set(key, s.version);
        editor.applied.push({ workflowId, actorId, types: parsed.map((c) => c.type) });
        return Promise.resolve({ version: s.version });
      } catch (err) {
        if (err instanceof WorkflowError) return Promise.reject(new AppError(err.code === 'not_found' ? 'not_found' : 'validation', err.message));
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    },
  };
  return editor;
}
