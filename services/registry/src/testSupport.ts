import { createTestDatabase } from '@weft/testkit';
import type { RegistryDB } from './db.js';
import { registryMigrations } from './migrations/index.js';
import type { Registry } from './ports.js';
import { createCipher, parseKeys, generateKey } from './secrets/cipher.js';

const STARTER = { id: 's', type: 'starter', name: 'Start', position: { x: 0, y: 0 }, subBlocks: {}, outputs: {}, enabled: true, data: {} };

/** A registry over a fresh test schema with a fake editor and a settable clock. */
export async function createTestRegistry(overrides: Partial<Registry> = {}) {
  const cipher = overrides.cipher ?? createCipher(parseKeys(generateKey('k1')));
  const database = await createTestDatabase<RegistryDB>('registry', registryMigrations(cipher));
  const clock = { now: new Date('2026-01-01T00:00:00Z') };
  const registry: Registry = {
    db: database.db,
    instance: 'test',
    editor: {
      // A starter alone: the smallest workflow a deploy accepts.
      getState: () => Promise.resolve({ version: 1, state: { blocks: { s: STARTER }, edges: [], loops: {}, parallels: {}, variables: {} } }),
      executeCommands: () => Promise.resolve({ version: 2 }),
    },
    cipher,
    workflowLimit: 100,
    oauth: { providers: {}, refreshSkewS: 300, fetch },
    now: () => clock.now,
    random: () => 0.5,
    kick: () => undefined,
    ...overrides,
  };
  return { registry, clock, drop: () => database.drop() };
}
