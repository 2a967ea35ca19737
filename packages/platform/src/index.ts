/** Platform plumbing shared by every Weft process: config, logs, Postgres, the bus, gRPC, shutdown. */
export { loadConfig, configSchema, serviceAddress, type Config, type ServiceName } from './config.js';
export { createLogger, type Logger } from './logger.js';
export { withRequestContext, currentRequestContext, currentRequestId, REQUEST_ID_HEADER, type RequestContext } from './context.js';
export { answerEach, createCallCoalescer, fromCallError, toCallError, type BatchedCall, type CallError, type Outcome } from './coalesce.js';
export { AppError, ERROR_MAP, isCodedError, isErrorCode, toAppError, codeFromGrpcStatus, type ErrorCode } from './errors.js';
export { createDatabase, ensureDatabase, migrate, pingDatabase, type Database, type Migration } from './db.js';
export { withAdvisoryLock } from './advisoryLock.js';
export {
  connectBus,
  ensureStreams,
  createEnvelope,
  publishEnvelope,
  startConsumer,
  streamName,
  STREAM_SOURCES,
  type Bus,
  type EventEnvelope,
  type StreamSource,
  type ConsumerOptions,
  type EventConsumerOptions,
  type BatchConsumerOptions,
  type RunningConsumer,
} from './bus.js';
export { RELAY_MIN_INTERVAL_MS, appendOutbox, outboxInsert, createOutboxRelay, pruneOutbox, platformMigrations, type OutboxRelay, type OutboxRelayOptions } from './outbox.js';
export { handleOnce } from './inbox.js';
export {
  createGrpcServer,
  createServiceClient,
  checkGrpcHealth,
  fromServiceError,
  GRPC_MAX_MESSAGE_BYTES,
  CALLER_HEADER,
  setCallingService,
  type GrpcServer,
  type ServiceHandlers,
  type ServiceClient,
  type CallContext,
  type CallOptions,
} from './grpc.js';
export { onShutdown } from './shutdown.js';
export { TEMPORAL_HEALTH_SERVICE, temporalLogger } from './temporal.js';
export { ENCRYPTED_ENCODING, PayloadCipher, payloadKey, serviceDataConverter, weftDataConverter } from './payloadCodec.js';
export { CLAIM_CHECK_ENCODING, CLAIM_CHECK_THRESHOLD_BYTES, PayloadClaimCheck, natsPayloadStore, payloadBucket, type PayloadStore } from './payloadStore.js';
export { bootService, serviceMigrations, type ServiceRuntime, type BootOptions } from './service.js';
