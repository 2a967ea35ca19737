/** Helpers for Weft's integration and end-to-end tests. */
export { backingEnv, type BackingEnv } from './env.js';
export { createTestDatabase, createTestInstance, uniqueSuffix } from './resources.js';
