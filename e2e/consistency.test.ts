import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { startSecondGateway } from './support/gateway.js';
import { createAccount } from './support/accounts.js';
import { signUp, type TestUser } from './support/session.js';
import { apiAt } from './support/http.js';

/**
 * Read-your-writes through the gateways (issue 9): after a 2xx, the very next call, through this
 * gateway or another one, sees the change. Each pair runs back to back; pairs run a few at a time so
 * the services see concurrent traffic, and every status that is not the expected one is collected.
 */

type Gateway = string;
let second: { url: string; stop: () => void };
let user: TestUser;

/** A JSON call to one gateway as `user`. */
const call = <T = Record<string, unknown>>(gateway: Gateway, method: string, path: string, body?: unknown) => apiAt(() => gateway)<T>(method, path, body, user.headers);

/** Runs `pair(i)` for i < count, `width` at a time; answers every unexpected outcome it reported. */
async function pairs(count: number, width: number, pair: (i: number) => Promise<string | undefined>): Promise<string[]> {
  const problems: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let i = next++; i < count; i = next++) {
        const problem = await pair(i);
        if (problem) problems.push(`#${i}: ${problem}`);
      }
    }),
  );
  return problems;
}

/** The gateway a pair's second call goes through: alternately the stack's and the second one. */
function other(i: number): Gateway {
  return i % 2 === 0 ? inject('weftUrl') : second.url;
}

async function createWorkflow(gateway: Gateway, name: string): Promise<string> {
  const res = await call<{ id: string }>(gateway, 'POST', '/api/workflows', { workspaceId: user.workspaceId, name });
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

const addBlock = (id: string) => ({ commands: [{ type: 'addBlock', id, blockType: 'function', position: { x: 400, y: 100 } }] });

beforeAll(async () => {
  second = await startSecondGateway();
});

// An account per test: the plan's workflow limit (500) counts every workflow a test creates.
beforeEach(async () => {
  user = await signUp('Consistency Tester');
});

afterAll(() => second?.stop());

describe('read your own writes through any gateway', () => {
  it('edits 500 workflows right after creating them', async () => {
    const problems = await pairs(500, 8, async (i) => {
      const id = await createWorkflow(inject('weftUrl'), `created ${i}`);
      const edit = await call(other(i), 'POST', `/api/workflows/${id}/commands`, addBlock('fn'));
      return edit.status === 200 ? undefined : `command answered ${edit.status} ${JSON.stringify(edit.body)}`;
    });
    expect(problems).toEqual([]);
  });

  it('edits 200 copies right after duplicating', async () => {
    const source = await createWorkflow(inject('weftUrl'), 'duplicated');
    expect((await call(inject('weftUrl'), 'POST', `/api/workflows/${source}/commands`, addBlock('fn'))).status).toBe(200);
    const problems = await pairs(200, 8, async (i) => {
      const copy = await call<{ id: string }>(inject('weftUrl'), 'POST', `/api/workflows/${source}/duplicate`, { name: `copy ${i}` });
      if (copy.status !== 201) return `duplicate answered ${copy.status} ${JSON.stringify(copy.body)}`;
      const edit = await call(other(i), 'POST', `/api/workflows/${copy.body.id}/commands`, addBlock('second'));
      return edit.status === 200 ? undefined : `command on the copy answered ${edit.status} ${JSON.stringify(edit.body)}`;
    });
    expect(problems).toEqual([]);
  });

  it('reads 100 workflows right after creating them: state, entry, events, variables, YAML', async () => {
    const reads = ['/state', '', '/events?after=0', '/variables', '/yaml'];
    const problems = await pairs(100, 8, async (i) => {
      const id = await createWorkflow(inject('weftUrl'), `read ${i}`);
      const suffix = reads[i % reads.length] ?? '';
      // GET /state first for every pair (the 100 pairs), then one of the other reads.
      for (const path of ['/state', suffix]) {
        const res = await call(other(i), 'GET', `/api/workflows/${id}${path}`);
        if (res.status !== 200) return `GET ${path || '/'} answered ${res.status} ${JSON.stringify(res.body)}`;
      }
      return undefined;
    });
    expect(problems).toEqual([]);
  });

  it('runs workflows right after creating them', async () => {
    const problems = await pairs(20, 4, async (i) => {
      const id = await createWorkflow(inject('weftUrl'), `run ${i}`);
      const run = await call<{ success: boolean }>(other(i), 'POST', `/api/workflows/${id}/execute`, {});
      return run.status === 200 && run.body.success ? undefined : `execute answered ${run.status} ${JSON.stringify(run.body)}`;
    });
    expect(problems).toEqual([]);
  });

  it('answers 404 to 100 commands right after a delete, through either gateway', async () => {
    const problems = await pairs(100, 8, async (i) => {
      const id = await createWorkflow(inject('weftUrl'), `deleted ${i}`);
      // Both gateways have read it, so each may remember the grant.
      for (const gateway of [inject('weftUrl'), second.url]) {
        const edit = await call(gateway, 'POST', `/api/workflows/${id}/commands`, addBlock(`warm${gateway === second.url ? 2 : 1}`));
        if (edit.status !== 200) return `warm-up command answered ${edit.status}`;
      }
      const gone = await call(inject('weftUrl'), 'DELETE', `/api/workflows/${id}`);
      if (gone.status !== 200) return `delete answered ${gone.status}`;
      const edit = await call(other(i + 1), 'POST', `/api/workflows/${id}/commands`, addBlock('late'));
      if (edit.status !== 404) return `command after delete answered ${edit.status} ${JSON.stringify(edit.body)}`;
      return undefined;
    });
    expect(problems).toEqual([]);
  });

  it('answers 404 to every read and to a run of a deleted workflow at once', async () => {
    const id = await createWorkflow(inject('weftUrl'), 'read then deleted');
    for (const gateway of [inject('weftUrl'), second.url]) expect((await call(gateway, 'GET', `/api/workflows/${id}/state`)).status).toBe(200);
    expect((await call(inject('weftUrl'), 'DELETE', `/api/workflows/${id}`)).status).toBe(200);
    for (const gateway of [inject('weftUrl'), second.url]) {
      for (const path of ['', '/state', '/variables', '/yaml', '/events?after=0']) {
        expect({ gateway, path, status: (await call(gateway, 'GET', `/api/workflows/${id}${path}`)).status }).toEqual({ gateway, path, status: 404 });
      }
      expect((await call(gateway, 'POST', `/api/workflows/${id}/execute`, {})).status).toBe(404);
    }
  });

  it('reports needsRedeployment from the edit just answered, and clears it after the undo just answered', async () => {
    const problems = await pairs(20, 4, async (i) => {
      const id = await createWorkflow(inject('weftUrl'), `deployed ${i}`);
      const deployed = await call(inject('weftUrl'), 'POST', `/api/workflows/${id}/deploy`, {});
      if (deployed.status !== 200) return `deploy answered ${deployed.status} ${JSON.stringify(deployed.body)}`;
      const steps: Array<[unknown, boolean]> = [
        [addBlock('fn'), true],
        [{ commands: [{ type: 'undo' }] }, false],
      ];
      for (const [commands, expected] of steps) {
        const edit = await call(inject('weftUrl'), 'POST', `/api/workflows/${id}/commands`, commands);
        if (edit.status !== 200) return `command answered ${edit.status}`;
        const status = await call<{ needsRedeployment: boolean }>(other(i), 'GET', `/api/workflows/${id}/deploy`);
        if (status.body.needsRedeployment !== expected) return `needsRedeployment was ${status.body.needsRedeployment}, expected ${expected}`;
      }
      return undefined;
    });
    expect(problems).toEqual([]);
  });

  it('answers the one first workspace to 20 concurrent lists of a new account, through both gateways', async () => {
    const account = await createAccount('Concurrent Lister');
    const lists = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const res = await fetch(`${other(i)}/api/workspaces`, { headers: { cookie: account.cookie } });
        return { status: res.status, body: (await res.json()) as { workspaces: Array<{ id: string }> } };
      }),
    );
    expect(lists.map((l) => l.status)).toEqual(Array.from({ length: 20 }, () => 200));
    const ids = lists.map((l) => l.body.workspaces.map((w) => w.id));
    expect(ids[0]).toHaveLength(1);
    for (const seen of ids) expect(seen).toEqual(ids[0]);
  });
});
