import type { ServiceClient } from '@weft/platform';
import type { registry } from '@weft/contracts';
import type { RegistryPort } from '../lifecycle/streamLifecycle.js';

/** The registry port over the registry's gRPC client (CheckWorkflows answers both questions). */
export function grpcRegistryPort(client: Pick<ServiceClient<typeof registry.RegistryServiceService>, 'checkWorkflows'>): RegistryPort {
  return {
    async existing(workflowIds) {
      const res = await client.checkWorkflows({ workflowIds });
      return new Set(res.existingIds);
    },
    async copiedFrom(workflowId) {
      const res = await client.checkWorkflows({ workflowIds: [workflowId] });
      return res.copiedFrom[workflowId];
    },
  };
}
