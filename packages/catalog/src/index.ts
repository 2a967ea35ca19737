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
export { blockToolCall } from './blocks/toolCall.js';
export type { BlockToolCall } from './blocks/toolCall.js';
export { uploadedFiles } from './blocks/uploads.js';
export type { UploadedFile } from './blocks/uploads.js';
export { AZURE_DEFAULT_API_VERSION, CHAT_TOOL_IDS, chatToolId, selectChatTool } from './blocks/modelTool.js';
export { getTool, listTools } from './tools/registry.js';
export { referenceName } from './referenceName.js';
export { MIN_SECRET_LENGTH, renameKeys, secretForms } from './secretForms.js';
export { formSearch, replaceSpans } from './secretSearch.js';
export { KEEP_ASIDE_OVER_BYTES, overBytes, utf8Bytes } from './keptAside.js';
export type { FormSearch, SecretSpan } from './secretSearch.js';
export { REFERENCE_TOKEN_SOURCE, codeOfField, referenceShape, scanCode } from './codeReferences.js';
export type { ReferenceNames } from './codeReferences.js';
export type { CodePlace, CodeTokenVisitor } from './codeReferences.js';
export { STREAMING_BLOCK_TYPES } from './blocks/streaming.js';
export { FUNCTION_TIMEOUT_MS, HTTP_TIMEOUT_MS } from './tools/http.tools.js';
export { conditionHolds, visibleSubBlocks } from './visibility.js';
export { DEFAULT_BLOCK_RETRIES, MAX_BLOCK_RETRIES, RETRIES_FIELD, hasRetries, retriesError } from './blocks/retries.js';
export { deferredToRun, fieldOfMessage, holdsRunTimeValue, validateBlockParams, validatedBlockTypes, validateWrittenParams } from './validation/registry.js';
export type { BlockValidator } from './validation/registry.js';
export { validateToolParams } from './validation/toolParams.validate.js';
export { S3_DEFAULT_REGION, S3_URL_EXAMPLE, S3_URL_FORMAT_ERROR, parseS3ObjectUrl } from './validation/s3.validate.js';
export type { S3Location } from './validation/s3.validate.js';
export { DOCUMENT_CONTENT, DOCUMENT_NAME_MAX, documentFileName, validateKnowledgeDocument } from './validation/knowledge.validate.js';
export { validateMemoryTool } from './validation/memory.validate.js';
export { parsePages, validateMistralTool } from './validation/mistralParse.validate.js';
export { WEALTHBOX_DUE_DATE } from './validation/wealthbox.validate.js';
export { SLACK_READ_DEFAULT, SLACK_READ_MAX, slackReadLimit } from './blocks/slack.block.js';
export { workflowOptionLabel, workflowOptions } from './blocks/workflow.block.js';
export { translationPrompt } from './blocks/translate.block.js';
export { SCHEDULE_TYPES, TIMEZONES, WEEKDAYS } from './blocks/schedule.fields.js';
export { WEBHOOK_PROVIDERS } from './blocks/webhook.block.js';
export { SMTP_PRESETS } from './blocks/email.block.js';
export { KNOWLEDGE_TOP_K } from './blocks/knowledge.block.js';
export { X_SEARCH_RESULTS } from './blocks/x.block.js';
export { OUTLOOK_READ } from './blocks/outlook.block.js';
export { gmailFolderQuery } from './tools/gmail.tools.js';
export { NOTION_PAGE_SIZE, NOTION_VERSION, formatNotionId } from './tools/notion.tools.js';
export { SCOPES } from './tools/scopes.js';
export { IMAGE_COUNT, IMAGE_SIZES } from './tools/image.tools.js';
export { KNOWLEDGE_PROCESSING } from './tools/knowledge.tools.js';
export { S3_LINK_EXPIRY_SECONDS } from './tools/s3.tools.js';
export { EXCEL_DEFAULTS } from './tools/microsoftExcel.tools.js';
export { SHEETS_DEFAULT_RANGE } from './tools/googleSheets.tools.js';
export { TEAMS_FETCH_LIMIT } from './tools/microsoftTeams.tools.js';
export { BROWSER_TASK_POLLING } from './tools/browserUse.tools.js';
export { FIRECRAWL_CRAWL_POLLING } from './tools/firecrawl.tools.js';
export { EXA_RESEARCH_POLLING, EXA_RESULTS } from './tools/exa.tools.js';
export { TAVILY_MAX_RESULTS } from './tools/tavily.tools.js';
export { VISION_MAX_TOKENS, visionModelId } from './tools/vision.tools.js';
export { AI_CHAT_MAX_TOKENS_FALLBACK } from './tools/aiChat.tools.js';
export { MISTRAL_OCR_MODEL } from './tools/mistral.tools.js';
export { PINECONE_API_VERSION } from './tools/pinecone.tools.js';
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
export type { SelectorItem, SelectorPage, SelectorRequest } from './selectors.js';
export { blockReferenceIn, dependentFields, isReference, replaceEnvReferences } from './selectors.js';
export { formatCost } from './providers/formatCost.js';
export { MAX_TOOL_ITERATIONS, ModelLoopError, TOOL_FAILED_MESSAGE, innermostMessage, runToolLoop } from './providers/toolLoop.js';
export { AttemptsExhausted, RETRY_INITIAL_MS, RETRY_MAX_MS, attemptFields, isTransientFailure, tryCall } from './providers/tries.js';
export type { CallTry, TryEnv } from './providers/tries.js';
export type { LoopOps, LoopTool, LoopToolCall, ToolCallLog, ToolLoopInput, ToolLoopResult, UsageControl } from './providers/toolLoop.js';
export { getAllBlocks, getBlocksAndTools, getBlocksMetadata } from './copilot/catalogueQueries.js';
export type { BlockMetadata, BlockSummary, GetAllBlocksOptions, ToolSummary } from './copilot/catalogueQueries.js';
export {
  blockConfigSchema,
  getAllBlocksRequestSchema,
  getBlocksMetadataRequestSchema,
  subBlockConfigSchema,
  toolConfigSchema,
  validateBlockRequestSchema,
} from './schemas.js';
export { ENVIRONMENT_NAME, MAX_ENVIRONMENT_VALUE_LENGTH, MAX_ENVIRONMENT_VARIABLES, environmentCountProblem, environmentVariableProblem } from './environment.js';
export { clamp, commaList, firstText, isBlank, parseJson, text, toBoolean, toInt, withoutBlanks } from './paramValues.js';
export { MIN_SCHEDULE_INTERVAL_SECONDS, cronExpressionError, timezoneOffsetSeconds, toTriggerSchedule } from './triggers/scheduleSpec.js';
export type { ScheduleFields, ScheduleProblem, ScheduleType, TriggerSchedule } from './triggers/scheduleSpec.js';
export { deploymentTriggers, normalizeWebhookPath, readStateBlocks, scheduleTriggers, webhookPathError, webhookTriggers } from './triggers/deploymentTriggers.js';
export type { ScheduleTrigger, StateBlock, WebhookProvider, WebhookResponseMode, WebhookTrigger } from './triggers/deploymentTriggers.js';
export { checkDeployable, unknownBlockReference } from './triggers/checkDeployable.js';
export { cycleMessage, findCycles, NO_STARTER_MESSAGE, pushTo } from './triggers/graphProblems.js';
export { containerParents, type ContainerLists, type MembershipState } from './triggers/containerChecks.js';
export { inputFormatFields, type InputField } from './triggers/inputFormat.js';
export { entryReadings, entryRuns, flowGraph, readableUpstream, runEntries, upstreamOf, type EntryReading, type FlowGraph, type FlowState } from './triggers/upstream.js';
export type { DeployableState, DeployProblem } from './triggers/checkDeployable.js';
export { validateTwilioSms, validateWhatsapp } from './validation/required.validate.js';
export { functionTimeoutError, MAX_FUNCTION_TIMEOUT_MS } from './validation/functionTimeout.validate.js';
export { isAnswerStatus, MAX_RESPONSE_STATUS, MIN_RESPONSE_STATUS, responseStatusError } from './validation/responseStatus.validate.js';
