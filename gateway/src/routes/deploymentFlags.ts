import { AppError } from '@weft/platform';
import type { registry } from '@weft/contracts';

/** Commands that would set deployment flags in the editor's copy of the state; the registry owns them. */
const DEPLOYMENT_COMMANDS: ReadonlySet<string> = new Set(['setDeployed', 'setNeedsRedeployment', 'setWebhookActive']);

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
