import { createTestDatabase } from '@weft/testkit';
import type { RegistryDB } from './db.js';
import { migrations } from './migrations/index.js';
import type { Registry } from './ports.js';
import { createCipher, parseKeys, generateKey } from './secrets/cipher.js';

/** A registry over a fresh test schema with a fake editor and a settable clock. */
export async function createTestRegistry(overrides: Partial<Registry> = {}) {
  const database = await createTestDatabase<RegistryDB>('registry', migrations);
  const clock = { now: new Date('2026-01-01T00:00:00Z') };
  const registry: Registry = {
    db: database.db,
    instance: 'test',
    editor: {
      getState: () => Promise.resolve({ version: 1, state: { blocks: {}, edges: [], loops: {}, parallels: {}, variables: {} } }),
      executeCommands: () => Promise.resolve({ version: 2 }),
    },
    cipher: createCipher(parseKeys(generateKey('k1'))),
    workflowLimit: 100,
    oauth: { providers: {}, refreshSkewS: 300, fetch },
    now: () => clock.now,
    random: () => 0.5,
    kick: () => undefined,
    ...overrides,
  };
  return { registry, clock, drop: () => database.drop() };
}
