import { describe, expect, it } from 'vitest';
import type { registry } from '@weft/contracts';
import { refuseDeploymentCommands, withDeploymentFlags } from './deploymentFlags.js';

const entry = (fields: Partial<registry.WorkflowEntry>): registry.WorkflowEntry => ({
  id: 'wf',
  workspaceId: 'ws',
  name: 'W',
  description: '',
  color: '#3972F6',
  marketplaceDataJson: '',
  isDeployed: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  needsRedeployment: false,
  hasActiveWebhook: false,
  ...fields,
});

describe("the workflow state's deployment flags are the registry's (spec 000 §3 Workflow state)", () => {
  it('overlays isDeployed, deployedAt, needsRedeployment, hasActiveWebhook and deploymentStatuses on the stored state', () => {
    // What the editor stored: a revert's flags, left there after an undeploy.
    const stored = { blocks: {}, isDeployed: true, deployedAt: 1, needsRedeployment: false, hasActiveWebhook: true };
    const deployed = entry({ isDeployed: true, deployedAt: '2026-02-03T04:05:06.000Z', apiKey: 'wf_key', needsRedeployment: true });
    expect(withDeploymentFlags(stored, deployed)).toEqual({
      blocks: {},
      isDeployed: true,
      deployedAt: Date.parse('2026-02-03T04:05:06.000Z'),
      needsRedeployment: true,
      hasActiveWebhook: false,
      deploymentStatuses: { wf: { isDeployed: true, deployedAt: '2026-02-03T04:05:06.000Z', apiKey: 'wf_key', needsRedeployment: true } },
    });
    expect(withDeploymentFlags(stored, entry({}))).toMatchObject({
      isDeployed: false,
      deployedAt: null,
      hasActiveWebhook: false,
      deploymentStatuses: { wf: { isDeployed: false, deployedAt: null, apiKey: null, needsRedeployment: false } },
    });
  });

  it('a state that is not an object is answered as it is', () => {
    expect(withDeploymentFlags(null, entry({ isDeployed: true }))).toBeNull();
  });

  it('refuses the flag commands from clients, naming the command; editing commands pass', () => {
    expect(() => refuseDeploymentCommands([{ type: 'addBlock' }, { type: 'setDeployed', isDeployed: true }])).toThrowError(
      expect.objectContaining({
        code: 'validation',
        message: 'commands[1].type: setDeployed is not an editing command: deployment flags are set by deploying (POST, DELETE or PATCH /api/workflows/{id}/deploy)',
      }) as Error,
    );
    for (const type of ['setNeedsRedeployment', 'setWebhookActive']) expect(() => refuseDeploymentCommands([{ type }])).toThrowError(/is not an editing command/);
    expect(() => refuseDeploymentCommands([{ type: 'addBlock' }, 'junk', null])).not.toThrow();
  });
});
