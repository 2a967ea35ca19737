import type { Kysely } from 'kysely';
import type { RegistryDB } from './db.js';
import type { Cipher } from './secrets/cipher.js';
import type { OAuthProvider } from './config.js';

/** A workflow's state as the editor answers it (only what the registry reads); blocks, edges, loops and parallels are JSON objects. */
export interface EditorState {
  blocks: Record<string, Record<string, unknown>>;
  edges: Array<Record<string, unknown>>;
  loops: Record<string, Record<string, unknown>>;
  parallels: Record<string, Record<string, unknown>>;
  variables: Record<string, { name: string; type: string; value: unknown }>;
}

/** The deployed state the editor's revertToDeployed takes (its DecideContext.deployedState). */
export interface DeployedStatePayload {
  blocks: Record<string, unknown>;
  edges: unknown[];
  /** The deployed variables, which the revert restores; absent for a deployment saved before they were kept. */
  variables?: Record<string, { id: string; name: string; type: string; value: unknown }>;
  deployedAt: number;
}

/** What an editor call carries besides its commands. */
export interface ExecuteCommandsOptions {
  deployedState?: DeployedStatePayload;
  /** The workflow a duplicate's replaceState copies, and the version its state was read at. */
  copyOf?: { workflowId: string; version: number };
}

/** What the registry asks of the editor service (gRPC in production, a fake in tests). */
export interface EditorPort {
  getState(workflowId: string, waitMs?: number): Promise<{ version: number; state: EditorState }>;
  /**
   * `deployedState` for revertToDeployed; `copyOf`, the workflow whose stored state (at that version)
   * a replaceState copies (a duplicate keeps that state's starters as they are, issue 14).
   */
  executeCommands(workflowId: string, commands: unknown[], actorId: string, opts?: ExecuteCommandsOptions): Promise<{ version: number }>;
  /**
   * Tells the editor at once that these workflows were deleted (their workflowDeleted events follow).
   * Optional only so fakes in tests may leave it out; production always has it (grpcEditorPort).
   */
  dropWorkflows?(workflowIds: string[]): Promise<void>;
}

/** Everything the registry's operations use; built once in main.ts. */
export interface Registry {
  db: Kysely<RegistryDB>;
  instance: string;
  editor: EditorPort;
  cipher: Cipher;
  workflowLimit: number;
  oauth: { providers: Record<string, OAuthProvider>; refreshSkewS: number; fetch: typeof fetch };
  now: () => Date;
  random: () => number;
  /** Wakes the outbox relay after a commit. */
  kick: () => void;
}
