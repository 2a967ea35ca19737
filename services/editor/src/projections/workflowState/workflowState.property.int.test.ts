import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replay, type Command, type WorkflowEvent } from '@weft/workflow';
import { commandArbitrary, editorTestStore, seededCommands } from '../../testSupport.js';
import { projectState } from '../../store/eventStore.js';

describe('read model property (real Postgres)', () => {
  let env: Awaited<ReturnType<typeof editorTestStore>>;
  beforeAll(async () => {
    env = await editorTestStore();
  });
  afterAll(async () => {
    await env?.database.drop();
  });

  it('random command sequences folded by evolve equal the read model in Postgres', async () => {
    let run = 0;
    let applied = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(commandArbitrary, { minLength: 1, maxLength: 30 }), fc.boolean(), async (random, batched) => {
        const workflowId = `prop-${++run}`;
        await env.start(workflowId);
        const commands: Command[] = [...seededCommands, ...random];
        const events: WorkflowEvent[] = [];
        // Batched: commands in flight together (one group commit); otherwise one at a time.
        const submit = (c: Command) => env.store.execute(workflowId, [c]).then((r) => r.events.map((e) => e.data)).catch(() => []);
        const outcomes = batched ? await Promise.all(commands.map(submit)) : [];
        if (!batched) for (const c of commands) outcomes.push(await submit(c));
        for (const decided of outcomes) events.push(...decided);
        applied += events.length;
        const rows = await env.db.selectFrom('events').select('data').where('workflow_id', '=', workflowId).orderBy('version').execute();
        const folded = replay(rows.map((r) => r.data as WorkflowEvent));
        const readModel = JSON.parse((await env.store.readState(workflowId))?.stateJson ?? 'null') as unknown;
        expect(readModel).toEqual(JSON.parse(JSON.stringify(projectState(folded))));
        // The answers the writers got are exactly the stream after the start event.
        expect(rows.slice(1).map((r) => r.data)).toEqual(JSON.parse(JSON.stringify(events)));
      }),
      { numRuns: 40 },
    );
    expect(applied).toBeGreaterThan(200);
  });
});
