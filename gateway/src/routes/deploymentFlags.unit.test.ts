import { describe, expect, it } from 'vitest';
import type { registry } from '@weft/contracts';
import { encodeSnapshot, decodeSnapshot, evolve, initialState, replay, type WorkflowEvent } from '@weft/workflow';
import { FLAG_EVENT_TEXT, carriesDeploymentFlags, eventsWithDeploymentFlags, refuseDeploymentCommands, refuseRestoresVersion, withDeploymentFlags, withSnapshotDeploymentFlags } from './deploymentFlags.js';

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

  it("GET /state's lean snapshot decodes to the registry's flags, its history untouched; a plain stored state too", () => {
    // The editor's copy says deployed (a revert); the registry has since undeployed it.
    const revert: WorkflowEvent = { type: 'revertedToDeployed', at: 5, blocks: {}, edges: [], deployedAt: 4, hasActiveWebhook: true };
    const stored = replay([revert]);
    const undeployed = entry({ isDeployed: false, needsRedeployment: true });
    const decoded = decodeSnapshot(withSnapshotDeploymentFlags(JSON.parse(JSON.stringify(encodeSnapshot(stored))), undeployed));
    expect(decoded).toMatchObject({ isDeployed: false, deployedAt: null, needsRedeployment: true, hasActiveWebhook: false, deploymentStatuses: { wf: { isDeployed: false } } });
    expect(decoded.history).toEqual(stored.history);
    expect(withSnapshotDeploymentFlags({ ...initialState() }, entry({ isDeployed: true, deployedAt: '2026-02-03T04:05:06.000Z' }))).toMatchObject({ isDeployed: true, deployedAt: Date.parse('2026-02-03T04:05:06.000Z') });
  });

  it("the event stream's events that carry flags carry the registry's, so folding them onto GET /state keeps them; other events pass as they are", () => {
    const deployed = entry({ isDeployed: true, deployedAt: '2026-02-03T04:05:06.000Z', needsRedeployment: false, hasActiveWebhook: false });
    const stored = [
      { version: 2, type: 'deploymentStatusSet', data: { type: 'deploymentStatusSet', at: 1, isDeployed: false, deployedAt: null } },
      { version: 3, type: 'webhookActiveSet', data: { type: 'webhookActiveSet', at: 2, hasActiveWebhook: true } },
      { version: 4, type: 'revertedToDeployed', data: { type: 'revertedToDeployed', at: 3, blocks: {}, edges: [], deployedAt: 9, hasActiveWebhook: true } },
      { version: 5, type: 'blockMoved', data: { type: 'blockMoved', at: 4, id: 'x', position: { x: 1, y: 1 } } },
    ];
    const sent = eventsWithDeploymentFlags(stored, deployed) as typeof stored;
    expect(sent[3]).toBe(stored[3]);
    const followed = sent.slice(0, 3).reduce((state, e) => evolve(state, e.data as WorkflowEvent), initialState());
    expect(followed).toMatchObject({ isDeployed: true, deployedAt: Date.parse('2026-02-03T04:05:06.000Z'), needsRedeployment: false, hasActiveWebhook: false });
    // The stored events themselves are left as they were.
    expect(stored[0]?.data).toMatchObject({ isDeployed: false });
    // A revert folded once the registry has undeployed the workflow leaves it undeployed, as GET /state says.
    const [revert] = eventsWithDeploymentFlags([stored[2]], entry({ isDeployed: false, needsRedeployment: true })) as typeof stored;
    expect(evolve(initialState(), revert?.data as WorkflowEvent)).toMatchObject({ isDeployed: false, deployedAt: null, needsRedeployment: true, hasActiveWebhook: false });
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

  it('refuses restoresVersion from clients, naming the field; a replaceState without it passes', () => {
    expect(() => refuseRestoresVersion([{ type: 'addBlock' }, { type: 'replaceState', blocks: {}, edges: [], restoresVersion: 3 }])).toThrowError(
      expect.objectContaining({
        code: 'validation',
        message: 'commands[1].restoresVersion: not taken from clients; only a copilot checkpoint revert restores a version (POST /api/copilot/checkpoints/{id}/revert)',
      }) as Error,
    );
    expect(() => refuseRestoresVersion([{ type: 'replaceState', blocks: {}, edges: [] }, 'junk', null])).not.toThrow();
  });

  it('the quick look at a page of events finds every event type that carries flags, and no other', () => {
    const types = ['deploymentStatusSet', 'needsRedeploymentSet', 'webhookActiveSet', 'revertedToDeployed', 'blockAdded', 'yamlImported', 'stateReplaced'];
    for (const type of types) {
      const page = JSON.stringify([{ version: 3, type, data: {} }]);
      expect([type, FLAG_EVENT_TEXT.test(page)]).toEqual([type, carriesDeploymentFlags({ version: 3, type, data: {} })]);
    }
    expect(types.filter((type) => carriesDeploymentFlags({ type }))).toHaveLength(4);
  });
});
