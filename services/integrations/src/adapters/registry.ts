import { AppError, createServiceClient, serviceAddress, type Config } from '@weft/platform';
import { registry } from '@weft/contracts';
import type { CredentialSource, CustomTool, CustomToolSource } from '../tools/runtime/types.js';
import { ToolError } from '../tools/serviceTool.js';

/** The registry calls the tool runtime makes (a test passes a fake with the same shape). */
export interface RegistryPort {
  getOAuthToken(req: { actor: { userId: string }; credentialId: string }): Promise<{ accessToken: string }>;
  listCustomTools(req: { actor: { userId: string }; workflowId?: string }): Promise<{ toolsJson: string }>;
}

export function createRegistryClient(config: Config): RegistryPort & { close(): void } {
  return createServiceClient(registry.RegistryServiceService, serviceAddress(config, 'registry'), { deadlineMs: config.GRPC_DEADLINE_MS });
}

function actorOf(actorId: string | undefined): { userId: string } {
  if (!actorId) throw new AppError('unauthenticated', 'No user is known for this call');
  return { userId: actorId };
}

/** OAuth tokens from the registry's token route, which refreshes a token when it is due. */
export function registryCredentials(port: RegistryPort): CredentialSource {
  return {
    async accessToken(context, credentialId) {
      const { accessToken } = await port.getOAuthToken({ actor: actorOf(context.actorId), credentialId });
      return accessToken;
    },
  };
}

function toCustomTool(value: unknown): CustomTool | null {
  if (typeof value !== 'object' || value === null) return null;
  const t = value as Record<string, unknown>;
  if (typeof t.id !== 'string' || typeof t.title !== 'string' || typeof t.schema !== 'object' || t.schema === null) return null;
  return { id: t.id, title: t.title, schema: t.schema, code: typeof t.code === 'string' ? t.code : '' };
}

/** Spec 000 §8: the registry's custom-tool data is not a list. */
const INVALID_FORMAT = 'Invalid response format';

function parseList(toolsJson: string): unknown[] {
  if (!toolsJson) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(toolsJson);
  } catch {
    throw new ToolError(INVALID_FORMAT);
  }
  if (!Array.isArray(parsed)) throw new ToolError(INVALID_FORMAT);
  return parsed;
}

/**
 * The acting user's custom tools (spec 000 §5 load rules: invalid entries are skipped, missing code
 * is ''). Data that is not a list (or not JSON) is refused with §8's 'Invalid response format', the
 * answer of the call that needed the list.
 */
export function registryCustomTools(port: RegistryPort): CustomToolSource {
  return {
    async list(context) {
      const { toolsJson } = await port.listCustomTools({ actor: actorOf(context.actorId), ...(context.workflowId ? { workflowId: context.workflowId } : {}) });
      return parseList(toolsJson).map(toCustomTool).filter((t): t is CustomTool => t !== null);
    },
  };
}
