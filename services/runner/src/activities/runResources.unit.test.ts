import { describe, expect, it } from 'vitest';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { Kysely } from 'kysely';
import type { RunnerDB } from '../db.js';
import { createRunResourceActivities } from './runResources.js';

const unused = () => Promise.reject(new Error('not used'));

describe('loadEnvironment', () => {
  it("reads the environment of the actor the run's arguments name, without waiting for the execution row", async () => {
    const asked: string[] = [];
    // A database that fails any query: the execution row must not be needed when the actor is given.
    const db = new Proxy({}, { get: () => () => { throw new Error('the execution row was read'); } }) as unknown as Kysely<RunnerDB>;
    const acts = createRunResourceActivities({
      db,
      sources: { environment: (userId) => (asked.push(userId), Promise.resolve({ KEY: `of-${userId}` })), workflow: unused, deployedState: unused, draftState: unused },
    });
    const env = new MockActivityEnvironment({ workflowExecution: { workflowId: 'exec-1', runId: 'r' } });
    expect(await env.run(acts.loadEnvironment, 'ws-1', 'u-7')).toEqual({ KEY: 'of-u-7' });
    expect(asked).toEqual(['u-7']);
    await expect(env.run(acts.loadEnvironment, 'ws-1')).rejects.toThrow('the execution row was read');
  });
});
