import { bootService } from '@weft/platform';
import { copilot } from '@weft/contracts';
import { migrations } from './migrations/index.js';
import { copilotHandlers } from './adapters/grpc.js';

/** Composition root of the copilot service. */
const rt = await bootService({ name: 'copilot', migrations });
rt.grpc.add(copilot.CopilotServiceService, copilotHandlers());
await rt.listen();
