import { AppError } from '@weft/platform';
import type { registry } from '@weft/contracts';
import { DEPLOYMENT_COMMANDS } from '@weft/workflow';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The workflow state as spec 000 §3 gives it, its deployment flags read from the registry — deploy,
 * undeploy, activation, revert and the webhook switch change them there, never in the editor — so
 * `data.state.isDeployed` cannot disagree with `data.isDeployed`. `deployedAt` keeps the state's
 * form (epoch milliseconds); `deploymentStatuses` is §3's per-workflow status, keyed by workflow id.
 */
export function withDeploymentFlags(state: unknown, w: registry.WorkflowEntry): unknown {
  if (!isRecord(state)) return state;
  const deployedAt = w.deployedAt ?? null;
  return {
    ...state,
    isDeployed: w.isDeployed,
    deployedAt: deployedAt === null ? null : Date.parse(deployedAt),
    needsRedeployment: w.needsRedeployment,
    hasActiveWebhook: w.hasActiveWebhook,
    deploymentStatuses: { [w.id]: { isDeployed: w.isDeployed, deployedAt, apiKey: w.apiKey ?? null, needsRedeployment: w.needsRedeployment } },
  };
}

/**
 * The full state GET /api/workflows/{id}/state answers (the editor's lean snapshot, or a plain state
 * stored before that form) with the registry's flags laid over its own, as `withDeploymentFlags` does
 * for GET /api/workflows/{id}: in the lean form they sit in `rest`, which decoding spreads over the state.
 */
export function withSnapshotDeploymentFlags(snapshot: unknown, w: registry.WorkflowEntry): unknown {
  if (!isRecord(snapshot) || snapshot.format !== 'lean-1') return withDeploymentFlags(snapshot, w);
  return { ...snapshot, rest: withDeploymentFlags(snapshot.rest, w) };
}

/** Per event type carrying deployment flags, the fields of its data that are flags (evolve reads each). */
const FLAG_FIELDS: Readonly<Record<string, readonly string[]>> = {
  deploymentStatusSet: ['isDeployed', 'deployedAt'],
  needsRedeploymentSet: ['needsRedeployment'],
  webhookActiveSet: ['hasActiveWebhook'],
  revertedToDeployed: ['isDeployed', 'deployedAt', 'needsRedeployment', 'hasActiveWebhook'],
};

/**
 * The text of a stored event of a type that carries deployment flags (the editor writes
 * `"type":"<type>"`), built from FLAG_FIELDS so a type added there is looked for too.
 */
export const FLAG_EVENT_TEXT = new RegExp(`"type":"(?:${Object.keys(FLAG_FIELDS).join('|')})"`);

/** Whether an event (as the editor stores and streams it: `{version, type, data}`) carries deployment flags. */
export function carriesDeploymentFlags(event: unknown): boolean {
  return isRecord(event) && typeof event.type === 'string' && FLAG_FIELDS[event.type] !== undefined;
}

/**
 * Editor events as GET /api/workflows/{id}/events sends them: an event that carries deployment flags
 * (a revert to deployed, or a flag event stored before the registry owned them) carries the registry's
 * instead, so a client folding the stream onto GET /state's answer keeps the registry's flags.
 */
export function eventsWithDeploymentFlags(events: readonly unknown[], w: registry.WorkflowEntry): unknown[] {
  const flags = withDeploymentFlags({}, w);
  if (!isRecord(flags)) return [...events];
  return events.map((event) => {
    if (!carriesDeploymentFlags(event) || !isRecord(event) || !isRecord(event.data)) return event;
    const fields = FLAG_FIELDS[String(event.type)] ?? [];
    return { ...event, data: { ...event.data, ...Object.fromEntries(fields.map((f) => [f, flags[f]])) } };
  });
}

/**
 * Refuses `setDeployed`, `setNeedsRedeployment` and `setWebhookActive` from a client: they would only
 * change the editor's copy of flags the registry owns (and the answers above read from the registry).
 */
export function refuseDeploymentCommands(commands: readonly unknown[]): void {
  commands.forEach((command, i) => {
    const type = isRecord(command) ? command.type : undefined;
    if (typeof type === 'string' && DEPLOYMENT_COMMANDS.has(type)) {
      throw new AppError('validation', `commands[${i}].type: ${type} is not an editing command: deployment flags are set by deploying (POST, DELETE or PATCH /api/workflows/{id}/deploy)`);
    }
  });
}

/**
 * Refuses a client's replaceState naming `restoresVersion`: only the copilot's checkpoint revert
 * names the version it restores (the editor then reads the workflow's state at that version from its
 * event log and lets back what it held before today's rules); from a client it would replay the log
 * for any version picked and put back any pre-rule state.
 */
export function refuseRestoresVersion(commands: readonly unknown[]): void {
  commands.forEach((command, i) => {
    if (isRecord(command) && command.type === 'replaceState' && command.restoresVersion !== undefined) {
      throw new AppError('validation', `commands[${i}].restoresVersion: not taken from clients; only a copilot checkpoint revert restores a version (POST /api/copilot/checkpoints/{id}/revert)`);
    }
  });
}
