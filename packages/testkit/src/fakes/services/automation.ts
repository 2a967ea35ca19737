import type { FakeServer } from '../server.js';
import { createServiceFake } from './kit.js';

/** Recorded answers of S3 (HEAD of an object), Browser Use (v1 tasks) and a Clay table webhook. */
export const AUTOMATION_FIXTURES = {
  s3Headers: {
    'content-type': 'application/pdf',
    'content-length': '52311',
    'last-modified': 'Thu, 01 May 2025 10:00:00 GMT',
    etag: '"9b2cf535f27731c974343645a3985328"',
  },
  browserTaskCreated: { id: 'task-b1' },
  browserTaskDone: {
    id: 'task-b1',
    status: 'finished',
    output: 'The cheapest flight costs 129 EUR.',
    steps: [
      { id: 's1', step: 1, next_goal: 'Open the flight search', url: 'https://flights.example/' },
      { id: 's2', step: 2, next_goal: 'Read the cheapest price', url: 'https://flights.example/results' },
    ],
    live_url: 'https://live.browser-use.com/task-b1',
  },
  clay: { status: 'ok', rowId: 'row-9' },
};

/** A fake of S3 (HEAD /s3/{key...} under a bucket host), Browser Use (/browser-use) and a Clay webhook (/clay/webhook). */
export function createFakeAutomation(): Promise<FakeServer> {
  const f = AUTOMATION_FIXTURES;
  return createServiceFake([
    ['HEAD', '/s3/reports/q3%20plan.pdf', { headers: f.s3Headers }],
    ['POST', '/browser-use/run-task', { json: f.browserTaskCreated }],
    ['GET', '/browser-use/task/:id', { json: f.browserTaskDone }],
    ['POST', '/clay/webhook', { json: f.clay }],
  ]);
}
