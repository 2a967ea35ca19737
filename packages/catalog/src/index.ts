export type {
  BlockCategory,
  BlockConfig,
  BlockInput,
  ConditionValue,
  HttpMethod,
  ParamsMapper,
  ParamVisibility,
  SubBlockCondition,
  SubBlockConfig,
  SubBlockMode,
  SubBlockOption,
  SubBlockType,
  ToolConfig,
  ToolOAuth,
  ToolParam,
  ToolParamType,
  ToolRequest,
  ToolSelector,
  ValidationResult,
  ValueType,
} from './types.js';
export { SUB_BLOCK_TYPES, VALUE_TYPES } from './types.js';
export { getBlock, isKnownBlockType, listBlocks } from './blocks/registry.js';
export { chatToolId, selectChatTool } from './blocks/modelTool.js';
export { getTool, listTools } from './tools/registry.js';
export { FUNCTION_TIMEOUT_MS, HTTP_TIMEOUT_MS } from './tools/http.tools.js';
export { conditionHolds, visibleSubBlocks } from './visibility.js';
export { validateBlockParams } from './validation/registry.js';
export type { BlockValidator } from './validation/registry.js';
export type { ModelCapabilities, ModelDefinition, ModelPricing, ProviderConfig, ProviderId } from './providers/types.js';
export {
  getModel,
  getProvider,
  getProviderForModel,
  getProviderIdForModel,
  getTemperatureRange,
  listModelIds,
  listProviders,
  supportsComputerUse,
  supportsToolUsageControl,
} from './providers/registry.js';
export { OLLAMA_DEFAULT_URL } from './providers/ollama.provider.js';
export { EMBEDDING_DEFAULTS, EMBEDDING_MODEL_PRICES } from './providers/embeddings.js';
export { FALLBACK_PRICING, STREAMING_COST_PER_TOKEN, calculateCost, estimateStreamingCost, getModelPricing } from './providers/cost.js';
export type { CallCost } from './providers/cost.js';
export { formatCost } from './providers/formatCost.js';
export { getAllBlocks, getBlocksAndTools, getBlocksMetadata } from './copilot/catalogueQueries.js';
export type { BlockMetadata, BlockSummary, GetAllBlocksOptions, ToolSummary } from './copilot/catalogueQueries.js';
