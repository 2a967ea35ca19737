/** Helpers for Weft's integration and end-to-end tests. */
export { backingEnv, type BackingEnv } from './env.js';
export { createTestDatabase, createTestInstance, uniqueSuffix } from './resources.js';
export { createSmtpFake, type ReceivedMail, type SmtpFake, type SmtpFakeOptions } from './fakes/smtp.js';
export { createFakeServer, type FakeAnswer, type FakeHandler, type FakeServer, type RecordedRequest } from './fakes/server.js';
export * from './fakes/services/index.js';
export { createOpenAIFake, type OpenAIFake, type OpenAIFakeOptions } from './fakes/openai.js';
export { anthropicMessagesHandler, createAnthropicFake } from './fakes/anthropic.js';
export { createGeminiFake } from './fakes/gemini.js';
export type { FakeModelServer, FakeModelTurn, FakeModelTurnSource } from './fakes/modelScript.js';
export { AGENT_AND_SLACK_YAML } from './workflows.js';
