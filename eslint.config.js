// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
/** Code that must stay deterministic and free of I/O: Temporal workflow files and the pure workflow domain. */
const deterministicFiles = ['packages/workflow/src/**/*.ts', 'services/*/src/workflows/**/*.ts'];
const ioPackages = ['pg', 'kysely', 'nats', '@grpc/grpc-js', 'express', 'pino', 'openai', '@anthropic-ai/sdk', '@weft/platform', 'quickjs-emscripten'];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'packages/contracts/src/gen/**', '.data/**', '**/*.js', '**/*.mjs', 'vitest.config.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: deterministicFiles,
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [...nodeBuiltins, ...ioPackages].map((name) => ({ name, message: 'Workflow code must be deterministic: no Node built-ins or I/O here.' })) }],
      'no-restricted-globals': ['error', 'fetch', 'setTimeout', 'setInterval', 'process', 'require'],
    },
  },
);
