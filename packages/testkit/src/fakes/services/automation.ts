import type { FakeServer } from '../server.js';
import { createServiceFake } from './kit.js';

/** Recorded answers of S3 (HEAD of an object) and a Clay table webhook. */
export const AUTOMATION_FIXTURES = {
  s3Headers: {
    'content-type': 'application/pdf',
    'content-length': '52311',
    'last-modified': 'Thu, 01 May 2025 10:00:00 GMT',
    etag: '"9b2cf535f27731c974343645a3985328"',
  },
  clay: { status: 'ok', rowId: 'row-9' },
};

/**
 * A fake of S3 (HEAD /s3/reports/q3%20plan.pdf, as under a bucket host, or /s3/{bucket}/{region}/reports/q3%20plan.pdf when a
 * test puts bucket and region in the base URL) and a Clay webhook (/clay/webhook).
 */
export function createFakeAutomation(): Promise<FakeServer> {
  const f = AUTOMATION_FIXTURES;
  return createServiceFake([
    ['HEAD', '/s3/reports/q3%20plan.pdf', { headers: f.s3Headers }],
    ['HEAD', '/s3/:bucket/:region/reports/q3%20plan.pdf', { headers: f.s3Headers }],
    ['POST', '/clay/webhook', { json: f.clay }],
  ]);
}
