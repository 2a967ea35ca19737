import { getProviderIdForModel } from '@weft/catalog';
import { MODEL_KEY_VARIABLES, type ModelProviderId } from '@weft/contracts';
import { AppError } from '@weft/platform';

/** The operator's copilot model when neither the request nor the workspace names one. */
export interface OperatorDefaults {
  provider?: ModelProviderId;
  model: string;
}

/** Model used when nobody configured one. */
export const FALLBACK_COPILOT_MODEL = 'gpt-4o';

/** Environment variables (the user's workspace environment, then the operator's) naming the copilot's default. */
export const COPILOT_PROVIDER_VARIABLE = 'COPILOT_PROVIDER';
export const COPILOT_MODEL_VARIABLE = 'COPILOT_MODEL';

export const PROVIDERS: readonly ModelProviderId[] = ['openai', 'azure-openai', 'anthropic', 'google', 'deepseek', 'xai', 'cerebras', 'groq', 'ollama', 'huggingface'];

/** The environment variable holding each provider's key (the same names the operator uses). */
const KEY_NAMES = MODEL_KEY_VARIABLES;

export function isProvider(value: string): value is ModelProviderId {
  return (PROVIDERS as readonly string[]).includes(value);
}

function providerOf(name: string | undefined, field: string): ModelProviderId | undefined {
  const v = name?.trim();
  if (!v) return undefined;
  if (!isProvider(v)) throw new AppError('validation', `${field} must be one of ${PROVIDERS.join(', ')}`);
  return v;
}

/**
 * Provider and model of a turn: the request's, else the workspace environment's COPILOT_PROVIDER/COPILOT_MODEL,
 * else the operator's. The key is the workspace environment's variable for the provider; without it the
 * model layer uses the operator's key.
 */
export function resolveModel(
  request: { provider?: string | undefined; model?: string | undefined },
  env: Record<string, string>,
  operator: OperatorDefaults,
): { provider: ModelProviderId; model: string; apiKey?: string } {
  const requested = request.model?.trim();
  const workspaceModel = env[COPILOT_MODEL_VARIABLE]?.trim();
  let model: string;
  let provider: ModelProviderId | undefined;
  if (requested) {
    model = requested;
    provider = providerOf(request.provider, 'provider');
  } else if (workspaceModel) {
    model = workspaceModel;
    provider = providerOf(request.provider, 'provider') ?? providerOf(env[COPILOT_PROVIDER_VARIABLE], COPILOT_PROVIDER_VARIABLE);
  } else {
    model = operator.model;
    provider = providerOf(request.provider, 'provider') ?? operator.provider;
  }
  const settled = provider ?? getProviderIdForModel(model);
  const apiKey = env[KEY_NAMES[settled]]?.trim();
  return { provider: settled, model, ...(apiKey ? { apiKey } : {}) };
}

/** The operator's defaults from the service's environment (WEFT_COPILOT_PROVIDER, WEFT_COPILOT_MODEL). */
export function operatorDefaults(env: NodeJS.ProcessEnv): OperatorDefaults {
  const provider = providerOf(env.WEFT_COPILOT_PROVIDER, 'WEFT_COPILOT_PROVIDER');
  return { model: env.WEFT_COPILOT_MODEL?.trim() || FALLBACK_COPILOT_MODEL, ...(provider ? { provider } : {}) };
}
