import { AUTOMATION_FIXTURES, createFakeAutomation } from '@weft/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { automationTools, browserUsePolling } from './automation.tools.js';

const au = useFamily(createFakeAutomation, { browserUse: '/browser-use' }, automationTools);
const saved = { ...browserUsePolling };
afterEach(() => {
  Object.assign(browserUsePolling, saved);
});

describe('browser use', () => {
  it('browser_use_run_task starts the task with its secrets and model and polls until finished', async () => {
    Object.assign(browserUsePolling, { intervalMs: 1, timeoutMs: 10 });
    au.fake.once('GET', '/browser-use/task/task-b1', { json: { id: 'task-b1', status: 'running', steps: [] } });
    const r = await au.run('browser_use_run_task', { apiKey: 'bu-1', task: 'Find the cheapest flight', variables: '{"login":"ada"}', model: 'claude-3-7-sonnet-20250219' });
    const req = au.only('POST', '/browser-use/run-task');
    expect(req.headers.authorization).toBe('Bearer bu-1');
    expect(req.body).toEqual({ task: 'Find the cheapest flight', save_browser_data: false, llm_model: 'claude-3-7-sonnet-20250219', secrets: { login: 'ada' } });
    expect(au.fake.received('GET', '/browser-use/task/task-b1')).toHaveLength(2);
    expect(r).toEqual({
      success: true,
      output: {
        id: 'task-b1',
        success: true,
        status: 'finished',
        output: AUTOMATION_FIXTURES.browserTaskDone.output,
        steps: [
          { step: 1, goal: 'Open the flight search', url: 'https://flights.example/' },
          { step: 2, goal: 'Read the cheapest price', url: 'https://flights.example/results' },
        ],
      },
    });
  });

  it('browser_use_run_task: 422 gives the validation message, bad variables are refused', async () => {
    au.fake.once('POST', '/browser-use/run-task', { status: 422, json: { detail: [{ loc: ['body', 'task'], msg: 'Field required', type: 'missing' }] } });
    expect(await au.run('browser_use_run_task', { apiKey: 'k', task: '' })).toEqual({ success: false, output: {}, error: 'Validation error: Field required' });
    expect(au.only('POST', '/browser-use/run-task').body).toEqual({ task: '', save_browser_data: false, llm_model: 'gpt-4o' });
    expect(await au.run('browser_use_run_task', { apiKey: 'k', task: 't', variables: '[1]' })).toMatchObject({ error: 'Invalid JSON for variables: expected an object of {key: value}' });
  });

  it('browser_use_run_task gives up after the polling time with the §8 message', async () => {
    Object.assign(browserUsePolling, { intervalMs: 1, timeoutMs: 4 });
    au.fake.once('POST', '/browser-use/run-task', { json: { id: 'task-slow' } });
    au.fake.on('GET', '/browser-use/task/task-slow', { json: { id: 'task-slow', status: 'running' } });
    expect(await au.run('browser_use_run_task', { apiKey: 'k', task: 't' })).toMatchObject({
      success: false,
      error: 'Task did not complete within the maximum polling time (180s)',
    });
    expect(au.fake.received('GET', '/browser-use/task/task-slow')).toHaveLength(4);
  });
});

describe('clay', () => {
  it('clay_populate posts {data} to the webhook with the token', async () => {
    const r = await au.run('clay_populate', { webhookURL: `${au.fake.url}/clay/webhook`, authToken: 'clay-1', data: '{"company":"Weft","size":12}' });
    const req = au.only('POST', '/clay/webhook');
    expect(req.headers.authorization).toBe('Bearer clay-1');
    expect(req.body).toEqual({ data: { company: 'Weft', size: 12 } });
    expect(r).toEqual({ success: true, output: { data: AUTOMATION_FIXTURES.clay } });
  });

  it('clay_populate fails with the webhook status and message, and refuses bad JSON', async () => {
    au.fake.once('POST', '/clay/webhook', { status: 401, json: { message: 'Invalid auth token' } });
    expect(await au.run('clay_populate', { webhookURL: `${au.fake.url}/clay/webhook`, authToken: 'x', data: { a: 1 } })).toMatchObject({ success: false, error: 'Clay webhook error: 401 Invalid auth token' });
    expect(await au.run('clay_populate', { webhookURL: `${au.fake.url}/clay/webhook`, authToken: 'x', data: '{oops' })).toMatchObject({ error: expect.stringMatching(/^Invalid JSON for data: /) });
  });
});
