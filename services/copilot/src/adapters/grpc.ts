import type { ServiceHandlers } from '@weft/platform';
import type { copilot } from '@weft/contracts';
import { COPILOT_TOOLS } from '../tools.js';

/** The copilot's gRPC surface. */
export function copilotHandlers(): ServiceHandlers<typeof copilot.CopilotServiceService> {
  return {
    async listTools() {
      return { tools: COPILOT_TOOLS.map((t) => ({ name: t.name, description: t.description, parametersJson: JSON.stringify(t.parameters) })) };
    },
  };
}
