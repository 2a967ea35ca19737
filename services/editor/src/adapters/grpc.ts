import { z } from 'zod';
import { AppError, answerEach, type Logger, type ServiceHandlers } from '@weft/platform';
import type { editor } from '@weft/contracts';
import { DEPLOYMENT_COMMANDS, blockStateSchema, edgeSchema, encodeSnapshot, historyView, parseCommands, toYaml, yamlStructureGuide, type Command, type DecideContext, type DeployedState, type WorkflowState } from '@weft/workflow';
import type { EventStore } from '../store/eventStore.js';
import type { EventTail } from '../live/eventTail.js';
import type { RegistryPort, StreamLifecycle } from '../lifecycle/streamLifecycle.js';

const MAX_WAIT_MS = 5_000;
/** Longest a ReadEvents call waits for a new event (the gateway polls again after it). */
const MAX_EVENTS_WAIT_MS = 30_000;
const DEFAULT_EVENTS_LIMIT = 500;
const MAX_EVENTS_LIMIT = 5_000;

const deployedStateSchema = z.object({
  blocks: z.record(z.string(), blockStateSchema),
  edges: z.array(edgeSchema),
  /** The deployed workflow variables (absent for a deployment saved before they were kept). */
  variables: z
    .record(z.string(), z.object({ id: z.string(), name: z.string(), type: z.enum(['plain', 'number', 'boolean', 'object', 'array']), value: z.unknown() }))
    .optional(),
  deployedAt: z.number().optional(),
});

function parseJson(field: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('validation', `${field} must be valid JSON`);
  }
}

function parseDeployedState(text: string | undefined): DeployedState | undefined {
  if (text === undefined || text === '') return undefined;
  const parsed = deployedStateSchema.safeParse(parseJson('deployedStateJson', text));
  if (!parsed.success) throw new AppError('validation', 'deployedStateJson is not a deployed state');
  return parsed.data;
}

/** The service deployment commands are taken from, as it names itself (CALLER_HEADER, set by bootService). */
const DEPLOYMENTS_OWNER = 'registry';

/**
 * Refuses deployment-flag commands, and the deployed state a revertToDeployed puts back (it carries
 * isDeployed and hasActiveWebhook into the editor's copy), from any caller but the registry (the
 * gateway refuses the commands from clients first; its revert goes through the registry).
 */
function refuseDeploymentCommands(req: editor.ExecuteCommandsRequest, commands: readonly Command[], caller: string | undefined): void {
  if (caller === DEPLOYMENTS_OWNER) return;
  const owner = `is taken from the registry only, which owns deployments (the caller is ${caller ?? 'unnamed'})`;
  const i = commands.findIndex((c) => DEPLOYMENT_COMMANDS.has(c.type));
  if (i >= 0) throw new AppError('forbidden', `commands[${i}].type: ${commands[i]?.type} ${owner}`);
  if (req.deployedStateJson !== undefined && req.deployedStateJson !== '') throw new AppError('forbidden', `deployedStateJson ${owner}`);
}

/**
 * The one version a request's replaceState commands restore (a copilot checkpoint's revert names one):
 * each distinct version costs a replay of the event log, so a second is refused before any is read.
 */
function restoredVersion(commands: readonly Command[]): number | undefined {
  let first: { version: number; index: number } | undefined;
  for (const [index, c] of commands.entries()) {
    if (c.type !== 'replaceState' || c.restoresVersion === undefined) continue;
    if (first === undefined) first = { version: c.restoresVersion, index };
    else if (c.restoresVersion !== first.version) {
      throw new AppError('validation', `commands[${index}].restoresVersion: a request restores one version at most (commands[${first.index}] restores ${first.version})`);
    }
  }
  return first?.version;
}

function notFound(workflowId: string): AppError {
  return new AppError('not_found', `Workflow ${workflowId} not found`);
}

/** The refusal of a workflow that has no stream here (as opposed to a block or deployment not found). */
function isWorkflowNotFound(err: unknown, workflowId: string): boolean {
  return err instanceof AppError && err.code === 'not_found' && err.message === `Workflow ${workflowId} not found`;
}

/** The editor's gRPC surface; `registry` confirms a duplicate's copyOfWorkflowId. */
export function editorHandlers(store: EventStore, tail: EventTail, logger: Logger, streams: StreamLifecycle, registry: Pick<RegistryPort, 'copiedFrom'>): ServiceHandlers<typeof editor.EditorServiceService> {
  /**
   * `read`'s answer; when the workflow has no stream yet, the stream is caught up from the registry
   * (a workflow its API has just answered) and `read` runs once more. Found streams cost nothing extra.
   */
  async function caughtUp<T>(workflowId: string, read: () => Promise<T | undefined>): Promise<T> {
    const found = await read();
    if (found !== undefined) return found;
    if (!workflowId || !(await streams.ensure([workflowId])).has(workflowId)) throw notFound(workflowId);
    const again = await read();
    if (again === undefined) throw notFound(workflowId);
    return again;
  }

  /** `run` with the same catch-up for calls that refuse a missing stream by throwing. */
  async function caughtUpOrThrow<T>(workflowId: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (!isWorkflowNotFound(err, workflowId) || !(await streams.ensure([workflowId])).has(workflowId)) throw err;
      return run();
    }
  }

  /**
   * A duplicate's copy (copyOfWorkflowId, issue 14): the stored blocks of its source at the version
   * the registry read (copyOfVersion), and the version the copy's stream must still be at. The
   * field is taken from no caller on trust: the registry must record the target as a duplicate of
   * that very source, and the target's stream must be as started (nothing saved into it yet), so no
   * forwarded request can let a workflow keep two starters it was not copied with.
   */
  async function copyOf(req: editor.ExecuteCommandsRequest, source: string): Promise<{ copiedState: { blocks: WorkflowState['blocks'] }; targetVersion: number }> {
    if (req.copyOfVersion === undefined) throw new AppError('validation', 'copyOfVersion is required with copyOfWorkflowId');
    const recorded = await registry.copiedFrom(req.workflowId);
    if (recorded !== source) throw new AppError('validation', `copyOfWorkflowId: workflow ${req.workflowId} is not a duplicate of ${source}`);
    const target = await caughtUp(req.workflowId, () => store.untouched(req.workflowId));
    if (!target.untouched) throw new AppError('validation', `copyOfWorkflowId: workflow ${req.workflowId} has been edited since it was duplicated; only a new copy takes its source's state`);
    const version = req.copyOfVersion;
    const at = await caughtUp(source, () => store.stateAt(source, version));
    if (at.state === undefined) throw new AppError('validation', `copyOfVersion: workflow ${source} has no version ${version} (it is at ${at.head})`);
    return { copiedState: { blocks: at.state.blocks }, targetVersion: target.version };
  }

  /**
   * The workflow's own blocks at each version its replaceState commands restore (`restoresVersion`,
   * a copilot checkpoint's revert), read from its event log: what it held then counts as stored.
   */
  async function restoredStates(workflowId: string, commands: readonly Command[]): Promise<DecideContext['restoredStates']> {
    const version = restoredVersion(commands);
    if (version === undefined) return undefined;
    const at = await caughtUp(workflowId, () => store.stateAt(workflowId, version));
    if (at.state === undefined) throw new AppError('validation', `restoresVersion: workflow ${workflowId} has no version ${version} (it is at ${at.head})`);
    return { [version]: { blocks: at.state.blocks } };
  }

  async function executeCommands(req: editor.ExecuteCommandsRequest, caller: string | undefined): Promise<editor.ExecuteCommandsResponse> {
    if (!req.workflowId) throw new AppError('validation', 'workflowId is required');
    const commands = parseCommands(parseJson('commands', req.commandsJson));
    refuseDeploymentCommands(req, commands, caller);
    const restored = await restoredStates(req.workflowId, commands);
    const deployedState = parseDeployedState(req.deployedStateJson);
    const copy = req.copyOfWorkflowId ? await copyOf(req, req.copyOfWorkflowId) : undefined;
    if (copy && req.expectedVersion !== undefined && req.expectedVersion !== copy.targetVersion) {
      throw new AppError('conflict', `Version conflict: expected ${req.expectedVersion}, current is ${copy.targetVersion}`, { currentVersion: copy.targetVersion });
    }
    // A copy is written only onto the version checked as untouched: an edit landing meanwhile makes it a conflict.
    const expectedVersion = copy ? copy.targetVersion : req.expectedVersion;
    const res = await caughtUpOrThrow(req.workflowId, () =>
      store.execute(req.workflowId, commands, { expectedVersion, commandId: req.commandId, deployedState, copiedState: copy?.copiedState, restoredStates: restored }),
    );
    return { version: res.version, eventsJson: JSON.stringify(res.events) };
  }

  return {
    executeCommands: (req, ctx) => executeCommands(req, ctx.caller),
    async executeCommandsBatch(req, ctx) {
      const calls = req.items.map((item) => ({ request: item.request ?? { workflowId: '', commandsJson: '', actorId: '' }, requestId: item.requestId }));
      const outcomes = await answerEach(calls, (request) => executeCommands(request, ctx.caller), (err, answered) => {
        if (answered.code === 'internal') logger.error({ err }, 'batched ExecuteCommands failed');
      });
      return { outcomes };
    },
    async getState(req) {
      // A workflow the registry knows is caught up at once; the wait only covers one whose
      // creation the registry has not committed yet.
      const deadline = Date.now() + Math.min(Math.max(req.waitMs, 0), MAX_WAIT_MS);
      for (;;) {
        try {
          return await caughtUp(req.workflowId, () => store.readState(req.workflowId));
        } catch (err) {
          if (!isWorkflowNotFound(err, req.workflowId) || Date.now() >= deadline) throw err;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async getStates(req) {
      const found = await store.readStates(req.workflowIds);
      const missing = req.workflowIds.filter((id) => id && !found.has(id));
      if (missing.length > 0 && (await streams.ensure(missing)).size > 0) {
        for (const [id, row] of await store.readStates(missing)) found.set(id, row);
      }
      return { states: Object.fromEntries(found) };
    },
    async getFullState(req) {
      const found = await caughtUp(req.workflowId, () => store.current(req.workflowId));
      return { version: found.version, stateJson: JSON.stringify(encodeSnapshot(found.state)) };
    },
    async getHistory(req) {
      const found = await caughtUp(req.workflowId, () => store.current(req.workflowId));
      return { version: found.version, historyJson: JSON.stringify(historyView(found.state.history)) };
    },
    async getVariables(req) {
      return caughtUp(req.workflowId, () => store.readVariables(req.workflowId));
    },
    async exportYaml(req) {
      const found = await caughtUp(req.workflowId, () => store.current(req.workflowId));
      return { version: found.version, yamlContent: toYaml(found.state) };
    },
    getYamlStructure() {
      return Promise.resolve({ guideJson: JSON.stringify(yamlStructureGuide()) });
    },
    async readEvents(req) {
      const waitMs = Math.min(Math.max(req.waitMs, 0), MAX_EVENTS_WAIT_MS);
      const limit = req.limit > 0 ? Math.min(req.limit, MAX_EVENTS_LIMIT) : DEFAULT_EVENTS_LIMIT;
      const page = await caughtUpOrThrow(req.workflowId, () => tail.read(req.workflowId, Math.max(req.after, 0), waitMs, limit));
      return { version: page.head, eventsJson: JSON.stringify(page.events) };
    },
    async dropWorkflows(req) {
      await streams.drop(req.workflowIds);
      return {};
    },
  };
}
