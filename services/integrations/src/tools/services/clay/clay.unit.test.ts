import { AUTOMATION_FIXTURES, createFakeAutomation } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { clayTools } from './clay.tools.js';

const au = useFamily(createFakeAutomation, [], clayTools);

describe('clay', () => {
  it('clay_populate posts {data} to the webhook with the token', async () => {
    const r = await au.run('clay_populate', { webhookURL: `${au.fake.url}/clay/webhook`, authToken: 'clay-1', data: '{"company":"Weft","size":12}' });
    au.expectRequest('clay_populate', 'POST', '/clay/webhook', { headers: { authorization: 'Bearer clay-1', 'content-type': 'application/json' }, body: { data: { company: 'Weft', size: 12 } } });
    expect(r).toEqual({ success: true, output: { data: AUTOMATION_FIXTURES.clay } });
  });

  it('clay_populate fails with the webhook status and message, and refuses bad JSON', async () => {
    au.fake.once('POST', '/clay/webhook', { status: 401, json: { message: 'Invalid auth token' } });
    await au.expectError('clay_populate', { webhookURL: `${au.fake.url}/clay/webhook`, authToken: 'x', data: { a: 1 } }, 'Clay webhook error: 401 Invalid auth token');
    expect(await au.run('clay_populate', { webhookURL: `${au.fake.url}/clay/webhook`, authToken: 'x', data: '{oops' })).toMatchObject({ error: expect.stringMatching(/^Invalid JSON for data: /) });
  });
});
