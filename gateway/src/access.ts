import type { Actor } from './auth.js';
import { TtlCache } from './ttlCache.js';

export type AccessMode = 'read' | 'write';

/**
 * Whether an actor may read or write a workflow, asked of the registry and remembered briefly, so a
 * stream of edits does not wait on the registry (and its database) before every command.
 *
 * Only grants are remembered; a refusal is asked again next time, so access given is seen at once.
 * Access taken away is seen at once through this gateway (`forget` after every request that can
 * change membership or workflows), through other gateways when the registry's event reaches them
 * (`forgetOnRegistryEvent`), and at worst after `ttlMs`.
 */
export interface AccessChecker {
  /** Resolves when `actor` has `mode` access to the workflow; rejects with the registry's error otherwise. */
  require(actor: Actor, workflowId: string, mode: AccessMode): Promise<void>;
  forget(): void;
  /** Drops what is remembered when a registry event (by type) may change access. */
  forgetOnRegistryEvent(type: string): void;
}

/** How long the gateway remembers an access grant (WEFT_ACCESS_CACHE_MS overrides). */
export const ACCESS_CACHE_MS = 5_000;

/** Registry events after which remembered grants may be wrong. */
const ACCESS_EVENTS: ReadonlySet<string> = new Set(['memberUpdated', 'memberRemoved', 'workspaceDeleted', 'workflowDeleted', 'workflowUpdated']);

/** The registry call the checker needs (the gateway's registry client has it). */
export interface AccessSource {
  getWorkflow(req: { actor: Actor; workflowId: string; access: AccessMode }): Promise<unknown>;
}

export function createAccessChecker(registry: AccessSource, opts: { ttlMs?: number; maxEntries?: number; clock?: () => number } = {}): AccessChecker {
  const granted = new TtlCache<string, true>(opts.ttlMs ?? ACCESS_CACHE_MS, opts.maxEntries ?? 10_000, opts.clock);
  const key = (userId: string, workflowId: string, mode: AccessMode) => `${mode}\u0000${userId}\u0000${workflowId}`;

  return {
    async require(actor, workflowId, mode) {
      if (mode === 'read' && granted.get(key(actor.userId, workflowId, 'write'))) return;
      await granted.remember(key(actor.userId, workflowId, mode), async () => {
        await registry.getWorkflow({ actor, workflowId, access: mode });
        return true;
      });
    },
    forget() {
      granted.clear();
    },
    forgetOnRegistryEvent(type) {
      if (ACCESS_EVENTS.has(type)) this.forget();
    },
  };
}
