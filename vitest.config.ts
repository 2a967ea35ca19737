import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

/** Workspaces that hold tests, and the `@weft/*` source each package name resolves to in tests. */
const workspaces = [
  'packages/platform',
  'packages/contracts',
  'packages/catalog',
  'packages/workflow',
  'packages/testkit',
  'services/registry',
  'services/editor',
  'services/runner',
  'services/integrations',
  'services/copilot',
  'gateway',
  'web',
] as const;

const root = fileURLToPath(new URL('.', import.meta.url));
/** Subpath entries (package.json "exports"); listed first, as `@weft/workflow` would also match `@weft/workflow/layout`. */
const subpaths = {
  '@weft/workflow/layout': `${root}packages/workflow/src/layout/index.ts`,
  '@weft/platform/workflowBundle': `${root}packages/platform/src/workflowBundle.ts`,
  '@weft/catalog/workflowTries': `${root}packages/catalog/src/providers/workflowTries.ts`,
  '@weft/testkit/histories': `${root}packages/testkit/src/histories.ts`,
};
const alias = {
  ...subpaths,
  ...Object.fromEntries(
    workspaces
      .filter((w) => w.startsWith('packages/'))
      .map((w) => [`@weft/${w.split('/')[1]}`, `${root}${w}/src/index.ts`]),
  ),
};

// Tiers (STYLE.md): *.unit.test.ts pure, *.int.test.ts real Postgres/NATS/Temporal, e2e/ through the gateway.
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      ...workspaces.map((w) => ({
        resolve: { alias },
        test: {
          name: w.split('/').pop(),
          root: `${root}${w}`,
          include: ['src/**/*.test.ts'],
          // A guard against hangs, not a speed limit: generous enough for a machine loaded many times over.
          testTimeout: 90_000,
          hookTimeout: 180_000,
          // expect.poll waits for a condition; its default of 1 s is a speed limit on a loaded machine.
          expect: { poll: { timeout: 30_000 } },
        },
      })),
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          root: `${root}e2e`,
          include: ['**/*.test.ts'],
          exclude: ['dist/**', 'node_modules/**'],
          globalSetup: ['./support/globalSetup.ts'],
          testTimeout: 120_000,
          hookTimeout: 240_000,
          expect: { poll: { timeout: 30_000 } },
          fileParallelism: false,
        },
      },
    ],
  },
});
