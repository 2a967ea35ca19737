import { describe, expect, it, vi } from 'vitest';
import { decideBatch, decodeSnapshot, encodeSnapshot, replay, startWorkflow, WorkflowError, type Command, type DecideContext } from '@weft/workflow';
import type { StoredEvent } from './replica';
import { createWorkflowSession, unloadedMessage, type CommandAnswer, type Transport, type WorkflowSession } from './session';
import { hasUnsavedEdits, hasUnsentEdits, trackUnsaved, whenSaved } from './unsaved';

const STARTER = 'starter-1';

let ids = 0;
const context = (): DecideContext => ({
  now: 1_000,
  newId: () => `id-${++ids}`,
  blockDefinition: (type) => (type === 'agent' || type === 'starter' ? { name: type === 'agent' ? 'Agent' : 'Start', subBlocks: [], outputs: {} } : undefined),
});

/** A stand-in for the editor behind the gateway: the real domain, an event log, version checks and command ids. */
function fakeServer() {
  const log: StoredEvent[] = [];
  const answered = new Map<string, CommandAnswer>();
  const gates: { before?: Promise<void>; after?: Promise<void> } = {};
  let refuse: string | undefined;

  function commit(commands: Command[]): StoredEvent[] {
    const state = replay(log.map((e) => e.data));
    const stored = decideBatch(state, commands, context()).map((data, i) => ({ version: log.length + i + 1, type: data.type, data }));
    log.push(...stored);
    return stored;
  }
  log.push(...startWorkflow(context(), STARTER).map((data) => ({ version: 1, type: data.type, data })));

  const transport: Transport = {
    // As the gateway answers it: lean-encoded JSON, decoded on arrival.
    fullState: vi.fn(() => Promise.resolve({ version: log.length, state: decodeSnapshot(JSON.parse(JSON.stringify(encodeSnapshot(replay(log.map((e) => e.data)))))) })),
    eventsAfter: vi.fn((after: number) => Promise.resolve(log.filter((e) => e.version > after))),
    async send({ commands, expectedVersion, commandId }) {
      if (gates.before) await gates.before;
      const answer = answer_(commands, expectedVersion, commandId);
      if (gates.after) await gates.after;
      return answer;
    },
  };

  function answer_(commands: Command[], expectedVersion: number, commandId: string): CommandAnswer {
      const prior = answered.get(commandId);
      if (prior) return prior;
      if (refuse) return { kind: 'refused', message: refuse, statusText: 'Forbidden' };
      if (expectedVersion !== log.length) return { kind: 'conflict', message: `Version conflict: expected ${expectedVersion}, current is ${log.length}` };
      let answer: CommandAnswer;
      try {
        const events = commit(commands);
        answer = { kind: 'applied', version: log.length, events };
      } catch (error) {
        if (!(error instanceof WorkflowError)) throw error;
        answer = { kind: 'refused', message: error.message };
      }
      answered.set(commandId, answer);
      return answer;
  }

  return {
    log,
    transport,
    /** Another browser's edit, committed directly. */
    remote: commit,
    state: () => replay(log.map((e) => e.data)),
    /** Holds commands until the returned function is called: before deciding them, or after (holding only the answer). */
    hold(when: 'before' | 'after'): () => void {
      let open = () => {};
      gates[when] = new Promise((resolve) => (open = resolve));
      return () => {
        gates[when] = undefined;
        open();
      };
    },
    refuseWith(message: string) {
      refuse = message;
    },
  };
}

/** vi.waitFor's own limit is 1 s, which a loaded machine can spend without running the test at all. */
const WAIT = { timeout: 30_000 };

async function started(server: ReturnType<typeof fakeServer>, transport: Transport = server.transport): Promise<WorkflowSession> {
  let n = 0;
  const session = createWorkflowSession({ transport, context, newId: () => `command-${++n}`, retryDelayMs: 1 });
  await session.load();
  return session;
}

/** Resolves when the session has nothing pending. */
function settled(session: WorkflowSession): Promise<void> {
  return vi.waitFor(() => expect(session.snapshot().pending).toBe(0), WAIT);
}

const starter = (session: WorkflowSession) => session.snapshot().state.blocks[STARTER];

describe('a workflow session', () => {
  it('opens at the full state and its version without replaying the events before it', async () => {
    const server = fakeServer();
    server.remote([{ type: 'addBlock', id: 'a', blockType: 'agent', position: { x: 0, y: 0 } }]);
    server.remote([{ type: 'moveBlock', id: 'a', position: { x: 5, y: 5 } }]);
    const session = await started(server);
    expect(session.snapshot()).toMatchObject({ status: 'ready', version: 3 });
    expect(session.snapshot().state).toEqual(server.state());
    expect(server.transport.fullState).toHaveBeenCalledTimes(1);
    expect(server.transport.eventsAfter).not.toHaveBeenCalled();
  });

  it("applies another browser's undo and redo of edits made before it opened", async () => {
    const server = fakeServer();
    server.remote([{ type: 'moveBlock', id: STARTER, position: { x: 7, y: 7 } }]);
    const session = await started(server);
    session.receiveLive(server.remote([{ type: 'undo' }]));
    expect(starter(session)?.position).toEqual({ x: 100, y: 100 });
    session.receiveLive(server.remote([{ type: 'redo' }]));
    expect(starter(session)?.position).toEqual({ x: 7, y: 7 });
    expect(session.snapshot().state).toEqual(server.state());
  });

  it('undoes its own edit made in an earlier visit', async () => {
    const server = fakeServer();
    server.remote([{ type: 'moveBlock', id: STARTER, position: { x: 7, y: 7 } }]);
    const session = await started(server);
    expect(session.edit([{ type: 'undo' }])).toBeNull();
    expect(starter(session)?.position).toEqual({ x: 100, y: 100 });
    await settled(session);
    expect(session.snapshot().state).toEqual(server.state());
  });

  it('says why when the workflow could not be loaded, and takes no edits', async () => {
    const server = fakeServer();
    const failing: Transport = { ...server.transport, fullState: () => Promise.reject(new Error('Workflow wf not found')) };
    const session = await started(server, failing);
    expect(session.snapshot()).toMatchObject({ status: 'failed', message: 'Workflow wf not found' });
    expect(session.edit([{ type: 'toggleEnabled', id: STARTER }])).toBe('The workflow is not loaded');
  });

  it('shows an edit at once, then confirms it at the server version', async () => {
    const server = fakeServer();
    const session = await started(server);
    const release = server.hold('after');

    expect(session.edit([{ type: 'addBlock', id: 'a', blockType: 'agent', position: { x: 300, y: 100 } }])).toBeNull();
    expect(session.snapshot()).toMatchObject({ version: 1, pending: 1 });
    expect(session.snapshot().state.blocks.a?.name).toBe('Agent 1');

    release();
    await settled(session);
    expect(session.snapshot().version).toBe(2);
    expect(session.snapshot().state).toEqual(server.state());
  });

  it('counts edits as unsaved until the server answers them, and whenSaved waits for them (a reload must not lose them)', async () => {
    const server = fakeServer();
    const session = await started(server);
    const untrack = trackUnsaved(session);
    const release = server.hold('after');
    session.edit([{ type: 'addBlock', id: 'a', blockType: 'agent', position: { x: 300, y: 100 } }]);
    session.edit([{ type: 'addBlock', id: 'b', blockType: 'agent', position: { x: 600, y: 100 } }]);
    expect(session.unsaved()).toBe(2);
    expect(hasUnsavedEdits()).toBe(true);
    // The first is on its way (a request that outlives the page); the second waits behind it: leaving now loses that one.
    expect(session.unsent()).toBe(1);
    expect(hasUnsentEdits()).toBe(true);
    let saved = false;
    const waiting = whenSaved().then(() => (saved = true));
    await vi.waitFor(() => expect(server.log.length).toBeGreaterThan(1), WAIT);
    expect(saved).toBe(false);

    release();
    await waiting;
    expect(session.unsaved()).toBe(0);
    expect(session.unsent()).toBe(0);
    expect(hasUnsavedEdits()).toBe(false);
    expect(hasUnsentEdits()).toBe(false);
    expect(server.state().blocks.b).toBeDefined();
    untrack();
  });

  it('refuses an edit the domain refuses without sending it', async () => {
    const server = fakeServer();
    const session = await started(server);
    expect(session.edit([{ type: 'renameBlock', id: 'missing', name: 'x' }])).toMatch(/not found/i);
    expect(session.snapshot()).toMatchObject({ pending: 0, version: 1 });
    expect(server.log).toHaveLength(1);
  });

  it('holds live events that may be its own until the answer says which are', async () => {
    const server = fakeServer();
    const session = await started(server);
    const release = server.hold('after');
    session.edit([{ type: 'toggleEnabled', id: STARTER }]);
    // The server has applied the toggle (v2); another browser moves the block (v3); the stream delivers both before the answer.
    server.remote([{ type: 'moveBlock', id: STARTER, position: { x: 5, y: 6 } }]);
    session.receiveLive(server.log.slice(1));

    // Folding v2 and then re-applying the pending toggle on top would show the block enabled again.
    expect(starter(session)?.enabled).toBe(false);
    release();
    await settled(session);
    expect(session.snapshot().version).toBe(3);
    expect(session.snapshot().state).toEqual(server.state());
    expect(starter(session)).toMatchObject({ enabled: false, position: { x: 5, y: 6 } });
  });

  it('ignores live events it already has and applies remote ones in version order', async () => {
    const server = fakeServer();
    const session = await started(server);
    const [moved] = server.remote([{ type: 'moveBlock', id: STARTER, position: { x: 1, y: 2 } }]);
    const [renamed] = server.remote([{ type: 'renameBlock', id: STARTER, name: 'Begin' }]);
    if (!moved || !renamed) throw new Error('the fake server stored nothing');
    session.receiveLive([moved]);
    session.receiveLive([moved, renamed]);
    expect(session.snapshot().version).toBe(3);
    expect(session.snapshot().state).toEqual(server.state());
    expect(server.transport.eventsAfter).not.toHaveBeenCalled();
  });

  it('rebases an edit after a version conflict and sends it again', async () => {
    const server = fakeServer();
    const session = await started(server);
    const release = server.hold('before');
    session.edit([{ type: 'renameBlock', id: STARTER, name: 'Mine' }]);
    server.remote([{ type: 'addBlock', id: 'b', blockType: 'agent', position: { x: 0, y: 0 } }]);
    release();
    await settled(session);

    expect(server.log.map((e) => e.type)).toEqual(['workflowStarted', 'blockAdded', 'blockRenamed']);
    expect(session.snapshot().version).toBe(3);
    expect(session.snapshot().state).toEqual(server.state());
    expect(session.snapshot().message).toBeNull();
  });

  it('drops an edit that no longer applies after a conflict and says why', async () => {
    const server = fakeServer();
    const session = await started(server);
    session.edit([{ type: 'addBlock', id: 'b', blockType: 'agent', position: { x: 0, y: 0 } }]);
    await settled(session);
    const release = server.hold('before');
    session.edit([{ type: 'renameBlock', id: 'b', name: 'Mine' }]);
    server.remote([{ type: 'removeBlock', id: 'b' }]);
    release();
    await settled(session);

    expect(session.snapshot().message).toMatch(/Your edit was dropped: .*not found/i);
    expect(session.snapshot().state.blocks.b).toBeUndefined();
    expect(session.snapshot().state).toEqual(server.state());
  });

  it('shows the server message for a refused edit and takes the edit back', async () => {
    const server = fakeServer();
    const session = await started(server);
    server.refuseWith('This action needs write permission');
    session.edit([{ type: 'moveBlock', id: STARTER, position: { x: 9, y: 9 } }]);
    await settled(session);
    expect(session.snapshot().message).toBe('This action needs write permission');
    expect(starter(session)?.position).toEqual({ x: 100, y: 100 });
    expect(session.snapshot().state).toEqual(server.state());
  });

  it('says a refused variable edit was not saved in the spec’s words, with the status text, and takes it back', async () => {
    const server = fakeServer();
    const session = await started(server);
    server.refuseWith('This action needs write permission');
    session.edit([{ type: 'addVariable', id: 'v1', name: 'limit', variableType: 'number', value: '3' }]);
    expect(Object.keys(session.snapshot().state.variables)).toEqual(['v1']);
    await settled(session);
    expect(session.snapshot().message).toBe('Failed to save workflow variables: Forbidden');
    expect(session.snapshot().state.variables).toEqual({});
  });

  it('keeps the error of a state that did not load, for the canvas to tell what failed', async () => {
    const server = fakeServer();
    const failure = Object.assign(new Error('No access'), { status: 403, statusText: 'Forbidden' });
    const session = createWorkflowSession({ transport: { ...server.transport, fullState: () => Promise.reject(failure) }, context, newId: () => `c-${++ids}` });
    await session.load();
    expect(session.snapshot()).toMatchObject({ status: 'failed', message: 'No access', loadError: failure });
    // The variables come with the state: their load failure is told in the spec's words.
    expect(unloadedMessage(failure)).toBe('You do not have permission to access these variables');
    expect(unloadedMessage(Object.assign(new Error('Sign in'), { status: 401, statusText: 'Unauthorized' }))).toBe('You do not have permission to access these variables');
    expect(unloadedMessage(Object.assign(new Error('boom'), { status: 502, statusText: 'Bad Gateway' }))).toBe('Failed to load workflow variables: Bad Gateway');
    expect(unloadedMessage(new TypeError('Failed to fetch'))).toBe('Failed to load workflow variables: Failed to fetch');
  });

  it('refetches the missing events when the live stream skips a version', async () => {
    const server = fakeServer();
    const session = await started(server);
    server.remote([{ type: 'moveBlock', id: STARTER, position: { x: 1, y: 2 } }]);
    const skipped = server.remote([{ type: 'renameBlock', id: STARTER, name: 'After the gap' }]);
    session.receiveLive(skipped);
    await vi.waitFor(() => expect(session.snapshot().version).toBe(3), WAIT);
    expect(server.transport.eventsAfter).toHaveBeenLastCalledWith(1);
    expect(session.snapshot().state).toEqual(server.state());
  });

  it('keeps live events that arrive while it is fetching missing ones', async () => {
    const server = fakeServer();
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow: Transport = {
      ...server.transport,
      // The page of missing events was read before the newest event existed, and answers late.
      eventsAfter: async (after) => {
        const page = server.log.filter((e) => e.version > after);
        await gate;
        return page;
      },
    };
    const session = await started(server, slow);
    server.remote([{ type: 'moveBlock', id: STARTER, position: { x: 1, y: 2 } }]);
    session.receiveLive(server.remote([{ type: 'renameBlock', id: STARTER, name: 'After the gap' }])); // a gap: fetches v2
    session.receiveLive(server.remote([{ type: 'toggleEnabled', id: STARTER }])); // v4 arrives live meanwhile
    release();
    await vi.waitFor(() => expect(session.snapshot().version).toBe(4), WAIT);
    expect(session.snapshot().state).toEqual(server.state());
  });

  it('retries an edit whose answer was lost with the same command id, applying it once', async () => {
    const server = fakeServer();
    let lose = true;
    const flaky: Transport = {
      fullState: server.transport.fullState,
      eventsAfter: server.transport.eventsAfter,
      async send(request) {
        const answer = await server.transport.send(request);
        if (lose) {
          lose = false;
          throw new TypeError('Failed to fetch');
        }
        return answer;
      },
    };
    const session = await started(server, flaky);
    session.edit([{ type: 'toggleEnabled', id: STARTER }]);
    await settled(session);
    expect(server.log).toHaveLength(2);
    expect(session.snapshot().message).toBeNull();
    expect(starter(session)?.enabled).toBe(false);
    expect(session.snapshot().state).toEqual(server.state());
  });

  it('undoes through the shared history, the same way the server does', async () => {
    const server = fakeServer();
    const session = await started(server);
    session.edit([{ type: 'moveBlock', id: STARTER, position: { x: 7, y: 7 } }]);
    session.edit([{ type: 'undo' }]);
    expect(starter(session)?.position).toEqual({ x: 100, y: 100 });
    await settled(session);
    expect(session.snapshot().state).toEqual(server.state());
    expect(server.log.map((e) => e.type)).toEqual(['workflowStarted', 'blockMoved', 'undone']);
  });

  it("sends a paste's blocks and edges as one request, which one undo takes back whole, here and on the server; another browser's edit before it stays", async () => {
    const server = fakeServer();
    const requests: Command[][] = [];
    const session = await started(server, { ...server.transport, send: (request) => (requests.push(request.commands), server.transport.send(request)) });
    session.receiveLive(server.remote([{ type: 'moveBlock', id: STARTER, position: { x: 5, y: 5 } }]));
    expect(session.version()).toBe(2);
    const before = session.snapshot().state;
    session.edit([
      { type: 'addBlock', id: 'a1', blockType: 'agent', position: { x: 0, y: 0 } },
      { type: 'addBlock', id: 'a2', blockType: 'agent', position: { x: 300, y: 0 } },
      { type: 'addEdge', id: 'e1', source: 'a1', target: 'a2' },
    ]);
    await settled(session);
    session.edit([{ type: 'undo' }]);
    // Optimistically at once: both blocks and the edge gone, the other browser's move kept.
    expect(session.snapshot().state.blocks).toEqual(before.blocks);
    expect(session.snapshot().state.edges).toEqual([]);
    await settled(session);
    expect(session.snapshot().state).toEqual(server.state());
    expect(server.state().blocks[STARTER]?.position).toEqual({ x: 5, y: 5 });
    expect(server.log.map((e) => e.type)).toEqual(['workflowStarted', 'blockMoved', 'blockAdded', 'blockAdded', 'edgeAdded', 'undone']);
    expect(requests.map((commands) => commands.map((c) => c.type))).toEqual([['addBlock', 'addBlock', 'addEdge'], ['undo']]);
  });
});

describe('an event type this bundle does not know (a newer Weft is deployed)', () => {
  /** The server with one event only a newer Weft knows appended; its full state is the newer Weft's (the starter renamed by it). */
  function newerServer() {
    const server = fakeServer();
    const newer = (): StoredEvent => {
      const data = { type: 'blockRecoloured', at: 2_000, id: STARTER, colour: '#f00', name: 'junk' };
      const stored = { version: server.log.length + 1, type: data.type, data: data as unknown as StoredEvent['data'] };
      server.log.push(stored);
      return stored;
    };
    const recolouredAt: number[] = [];
    const fullState = vi.fn(async () => {
      const full = await server.transport.fullState();
      const starter = full.state.blocks[STARTER];
      if (starter && recolouredAt.some((v) => v <= full.version)) full.state = { ...full.state, blocks: { ...full.state.blocks, [STARTER]: { ...starter, name: 'Recoloured' } } };
      return full;
    });
    const transport: Transport = { ...server.transport, fullState };
    return {
      server,
      transport,
      fullState,
      /** Appends an unknown event to the log and answers it as the live stream sends it. */
      unknownEvent(): StoredEvent {
        const stored = newer();
        recolouredAt.push(stored.version);
        return stored;
      },
    };
  }

  it('stops folding, loads the full state again once, adds no junk history entry and marks the session outdated', async () => {
    const { server, transport, fullState, unknownEvent } = newerServer();
    const session = await started(server, transport);
    const before = session.snapshot().state;
    expect(fullState).toHaveBeenCalledTimes(1);
    expect(session.snapshot().outdated).toBe(false);

    const unknown = unknownEvent();
    session.receiveLive([unknown]);
    await vi.waitFor(() => expect(session.snapshot().version).toBe(unknown.version), WAIT);
    expect(fullState).toHaveBeenCalledTimes(2);
    const after = session.snapshot();
    expect(after.outdated).toBe(true);
    expect(after.state.blocks[STARTER]?.name).toBe('Recoloured');
    expect(after.state).not.toHaveProperty('colour');
    expect(after.state).not.toHaveProperty('type');
    expect(after.state.history.past).toHaveLength(before.history.past.length);
    expect(after.state.history.present).toEqual(before.history.present);

    // Known events after it fold as usual, with no further load.
    session.receiveLive(server.remote([{ type: 'moveBlock', id: STARTER, position: { x: 9, y: 9 } }]));
    expect(session.snapshot().version).toBe(unknown.version + 1);
    expect(session.snapshot().state.blocks[STARTER]?.position).toEqual({ x: 9, y: 9 });
    expect(fullState).toHaveBeenCalledTimes(2);
    expect(session.snapshot().outdated).toBe(true);
  });

  it('an answer to its own edit carrying an unknown event resyncs too, and the edit leaves the queue', async () => {
    const { server, transport, fullState, unknownEvent } = newerServer();
    // The newer server decides this tab's command into an event type the tab does not know.
    const send: Transport['send'] = async (request) => {
      const answer = await server.transport.send(request);
      if (answer.kind !== 'applied') return answer;
      const unknown = unknownEvent();
      return { kind: 'applied', version: unknown.version, events: [...answer.events, unknown] };
    };
    const session = await started(server, { ...transport, send });
    expect(session.edit([{ type: 'moveBlock', id: STARTER, position: { x: 4, y: 4 } }])).toBeNull();
    await settled(session);
    await vi.waitFor(() => expect(session.snapshot().version).toBe(server.log.length), WAIT);
    expect(fullState).toHaveBeenCalledTimes(2);
    expect(session.snapshot().state.blocks[STARTER]?.name).toBe('Recoloured');
    expect(session.snapshot().state.blocks[STARTER]?.position).toEqual({ x: 4, y: 4 });
    expect(session.snapshot().outdated).toBe(true);
  });

  it('an unknown event behind an edit in flight waits for its answer, then resyncs, so the edit is not shown twice', async () => {
    const { server, transport, fullState, unknownEvent } = newerServer();
    const session = await started(server, transport);
    const release = server.hold('after');
    expect(session.edit([{ type: 'addBlock', id: 'a', blockType: 'agent', position: { x: 1, y: 1 } }])).toBeNull();
    await vi.waitFor(() => expect(server.log).toHaveLength(2), WAIT);
    // The server applied the edit; its answer is held. An unknown event arrives before the answer does.
    const unknown = unknownEvent();
    session.receiveLive([unknown]);
    expect(session.snapshot().outdated).toBe(false);
    expect(fullState).toHaveBeenCalledTimes(1);
    release();
    await vi.waitFor(() => expect(session.snapshot().version).toBe(unknown.version), WAIT);
    await settled(session);
    expect(fullState).toHaveBeenCalledTimes(2);
    expect(session.snapshot().outdated).toBe(true);
    expect(Object.keys(session.snapshot().state.blocks).sort()).toEqual([STARTER, 'a'].sort());
    expect(session.snapshot().message).toBeNull();
  });

  it('a failed reload is told, and the replica stays at the last state it could fold', async () => {
    const { server, transport, fullState, unknownEvent } = newerServer();
    const session = await started(server, transport);
    const version = session.version();
    fullState.mockRejectedValueOnce(new Error('offline'));
    session.receiveLive([unknownEvent()]);
    await vi.waitFor(() => expect(session.snapshot().message).toBe('Could not refresh the workflow: offline'), WAIT);
    expect(session.version()).toBe(version);
    expect(session.snapshot().state).not.toHaveProperty('colour');
  });
});
