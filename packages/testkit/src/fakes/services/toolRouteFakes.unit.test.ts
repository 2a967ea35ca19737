import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeServer } from '../server.js';
import { createFakeJira } from './jira.js';
import { withConfluence } from './confluence.js';
import { createFakeElevenLabs, fakeSpeech } from './elevenlabs.js';

let atlassian: FakeServer;
let elevenlabs: FakeServer;

beforeAll(async () => {
  atlassian = withConfluence(await createFakeJira());
  elevenlabs = await createFakeElevenLabs();
});
afterAll(async () => {
  await atlassian.close();
  await elevenlabs.close();
});

const put = (site: string, body: unknown) => fetch(`${atlassian.url}/ex/confluence/${site}/wiki/api/v2/pages/42`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('the Confluence routes of the Atlassian fake', () => {
  it('keep an update per site, refuse one that does not carry the next version, and know only page 42 (and the archived 41)', async () => {
    const stale = await put('site-a', { title: 'New', version: { number: 3 } });
    expect(stale.status).toBe(409);
    expect(JSON.stringify(await stale.json())).toContain('Current Version: [3]');
    expect((await put('site-a', { title: 'New', body: { representation: 'storage', value: '<p>v4</p>' }, version: { number: 4, message: 'm' } })).status).toBe(200);
    const read = async (site: string) => (await (await fetch(`${atlassian.url}/ex/confluence/${site}/wiki/api/v2/pages/42?body-format=storage`)).json()) as { title: string; version: { number: number }; body: { storage: { value: string } } };
    expect(await read('site-a')).toMatchObject({ title: 'New', version: { number: 4, message: 'm' }, body: { storage: { value: '<p>v4</p>' } } });
    expect(await read('site-b')).toMatchObject({ title: 'Runbook', version: { number: 3 } });
    expect((await fetch(`${atlassian.url}/ex/confluence/site-a/wiki/api/v2/pages/7`)).status).toBe(404);
    expect((await fetch(`${atlassian.url}/oauth/token/accessible-resources`)).status).toBe(200);
  });
});

describe('the ElevenLabs fake', () => {
  it('answers audio naming the voice, model and text, and 401 without a key', async () => {
    const speak = (headers: Record<string, string>) =>
      fetch(`${elevenlabs.url}/v1/text-to-speech/v-1`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ text: 'Hi', model_id: 'm1' }) });
    const ok = await speak({ 'xi-api-key': 'k' });
    expect(ok.headers.get('content-type')).toBe('audio/mpeg');
    expect(await ok.text()).toBe(fakeSpeech('v-1', 'm1', 'Hi'));
    expect((await speak({})).status).toBe(401);
  });
});
