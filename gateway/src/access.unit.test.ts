import { describe, expect, it } from 'vitest';
import { AppError } from '@weft/platform';
import { createAccessChecker } from './access.js';
import { TtlCache } from './ttlCache.js';

/** A registry double: answers from `allowed` ("user:workflow:mode"), counts calls, can hold answers back. */
function fakeRegistry(allowed: Set<string>) {
  const calls: string[] = [];
  let hold: Promise<void> | undefined;
  return {
    calls,
    holdAnswers(until: Promise<void>) {
      hold = until;
    },
    async getWorkflow(req: { actor: { userId: string }; workflowId: string; access: string }) {
      const key = `${req.actor.userId}:${req.workflowId}:${req.access}`;
      calls.push(key);
      const decision = allowed.has(key);
      if (hold) await hold;
      if (!decision) throw new AppError('forbidden', 'Access denied');
      return {};
    },
  };
}

const alice = { userId: 'alice' };

describe('access checker', () => {
  it('asks the registry once for a grant it then remembers', async () => {
    const registry = fakeRegistry(new Set(['alice:w1:write']));
    const access = createAccessChecker(registry);
    await access.require(alice, 'w1', 'write');
    await access.require(alice, 'w1', 'write');
    expect(registry.calls).toEqual(['alice:w1:write']);
  });

  it('lets a remembered write grant answer a read, but not the other way round', async () => {
    const registry = fakeRegistry(new Set(['alice:w1:write', 'alice:w1:read', 'alice:w2:read']));
    const access = createAccessChecker(registry);
    await access.require(alice, 'w1', 'write');
    await access.require(alice, 'w1', 'read');
    await access.require(alice, 'w2', 'read');
    await expect(access.require(alice, 'w2', 'write')).rejects.toThrow('Access denied');
    expect(registry.calls).toEqual(['alice:w1:write', 'alice:w2:read', 'alice:w2:write']);
  });

  it('never remembers a refusal, so access given later is seen at once', async () => {
    const allowed = new Set<string>();
    const registry = fakeRegistry(allowed);
    const access = createAccessChecker(registry);
    await expect(access.require(alice, 'w1', 'read')).rejects.toThrow('Access denied');
    allowed.add('alice:w1:read');
    await access.require(alice, 'w1', 'read');
    expect(registry.calls).toHaveLength(2);
  });

  it('asks again after forget, after an access-changing registry event, and after the TTL', async () => {
    let now = 1_000;
    const registry = fakeRegistry(new Set(['alice:w1:read']));
    const access = createAccessChecker(registry, { ttlMs: 5_000, clock: () => now });
    await access.require(alice, 'w1', 'read');
    access.forget();
    await access.require(alice, 'w1', 'read');
    access.forgetOnRegistryEvent('needsRedeploymentSet');
    await access.require(alice, 'w1', 'read');
    expect(registry.calls).toHaveLength(2);
    for (const type of ['memberUpdated', 'memberRemoved', 'workspaceDeleted', 'workflowDeleted', 'workflowUpdated']) {
      access.forgetOnRegistryEvent(type);
      await access.require(alice, 'w1', 'read');
    }
    expect(registry.calls).toHaveLength(7);
    now += 5_000;
    await access.require(alice, 'w1', 'read');
    expect(registry.calls).toHaveLength(8);
  });

  it('does not remember a grant asked for before a forget and answered after it', async () => {
    const registry = fakeRegistry(new Set(['alice:w1:read']));
    const access = createAccessChecker(registry);
    let release = () => {};
    registry.holdAnswers(new Promise<void>((resolve) => (release = resolve)));
    const pending = access.require(alice, 'w1', 'read');
    access.forget(); // e.g. the member was removed while the registry was answering
    release();
    await pending;
    await access.require(alice, 'w1', 'read');
    expect(registry.calls).toHaveLength(2);
  });
});

describe('TtlCache', () => {
  it('drops the oldest entry when full and expired entries on read', () => {
    let now = 0;
    const cache = new TtlCache<string, number>(100, 2, () => now);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
    now = 100;
    expect(cache.get('b')).toBeUndefined();
    expect(cache.size).toBe(1);
  });
});
