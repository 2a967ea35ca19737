/**
 * An editor port kept in memory for tests: the same @weft/workflow decide/evolve and YAML codec the editor
 * service runs (with its layout), versions, expected-version conflicts and idempotent command ids.
 */
import { randomUUID } from 'node:crypto';
import { getBlock } from '@weft/catalog';
import { AppError } from '@weft/platform';
import { decideAndApply, initialState, parseCommands, replay, toYaml, WorkflowError, type WorkflowState } from '@weft/workflow';
import { elkLayout } from '@weft/workflow/layout';
import type { EditorPort } from '../ports.js';

export interface MemoryEditor extends EditorPort {
  /** The workflow's state (undo history included). */
  state(workflowId: string): WorkflowState;
  /** Puts a state as a pre-rule editor stored it (no decide: a name clash, a second starter), as one new version. */
  storeLegacy(workflowId: string, blocks: WorkflowState['blocks']): void;
  /** Commands applied, in order, per workflow. */
  applied: Array<{ workflowId: string; actorId: string; types: string[] }>;
}

export function createMemoryEditor(): MemoryEditor {
  const streams = new Map<string, { version: number; state: WorkflowState; blocksAt: Map<number, WorkflowState['blocks']> }>();
  const seen = new Map<string, number>();
  const stream = (id: string) => {
    let s = streams.get(id);
    if (!s) {
      s = { version: 0, state: initialState(), blocksAt: new Map() };
      streams.set(id, s);
    }
    return s;
  };
  const editor: MemoryEditor = {
    applied: [],
    state: (id) => stream(id).state,
    storeLegacy(workflowId, blocks) {
      const s = stream(workflowId);
      s.state = replay([{ type: 'stateReplaced', at: Date.now(), blocks, edges: [] }], s.state);
      s.version += 1;
      s.blocksAt.set(s.version, s.state.blocks);
    },
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
        // As the editor service does: a replaceState naming restoresVersion gets the workflow's blocks at that version.
        const restoredStates: Record<number, { blocks: WorkflowState['blocks'] }> = {};
        for (const c of parsed) {
          if (c.type !== 'replaceState' || c.restoresVersion === undefined) continue;
          const blocks = s.blocksAt.get(c.restoresVersion);
          if (blocks === undefined) throw new AppError('validation', `restoresVersion: workflow ${workflowId} has no version ${c.restoresVersion} (it is at ${s.version})`);
          restoredStates[c.restoresVersion] = { blocks };
        }
        const { events, state } = decideAndApply(s.state, parsed, { now: Date.now(), newId: randomUUID, blockDefinition: getBlock, layout: elkLayout, workflowId, restoredStates });
        s.state = state;
        s.version += events.length;
        s.blocksAt.set(s.version, state.blocks);
        if (key) seen.set(key, s.version);
        editor.applied.push({ workflowId, actorId, types: parsed.map((c) => c.type) });
        const warnings = events.flatMap((e) => (e.type === 'yamlImported' ? (e.warnings ?? []) : []));
        return Promise.resolve({ version: s.version, ...(warnings.length === 0 ? {} : { warnings }) });
      } catch (err) {
        if (err instanceof WorkflowError) return Promise.reject(new AppError(err.code === 'not_found' ? 'not_found' : 'validation', err.message));
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    },
  };
  return editor;
}
