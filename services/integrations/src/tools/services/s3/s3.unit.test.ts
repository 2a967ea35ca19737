import { createHash, createHmac } from 'node:crypto';
import { S3_URL_EXAMPLE } from '@weft/catalog';
import { AUTOMATION_FIXTURES, createFakeAutomation } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { blockPayload, useFamily } from '../testSupport.js';
import { s3Tools } from './s3.tools.js';

// Bucket and region in the base URL (as in S3's default, `s3` in tools/services/baseUrls.ts), so the request shows them.
const s3 = useFamily(createFakeAutomation, { s3: '/s3/{bucketName}/{region}' }, s3Tools);
const OBJECT = '/s3/weft-files/eu-central-1/reports/q3%20plan.pdf';
const creds = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const params = { ...creds, region: 'eu-central-1', bucketName: 'weft-files', objectKey: 'reports/q3 plan.pdf' };

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const hmac = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s).digest();
const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * An independent Signature V4 check (written from AWS's published algorithm, not the signing library):
 * recomputes the signature of a request and answers it.
 */
function expectedSignature(input: { method: string; path: string; query: Record<string, string>; headers: Record<string, string>; signedHeaders: string; payloadHash: string; amzDate: string; region: string }): string {
  const query = Object.entries(input.query)
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const names = input.signedHeaders.split(';');
  const canonicalHeaders = names.map((n) => `${n}:${(input.headers[n] ?? '').trim()}\n`).join('');
  const canonical = [input.method, input.path, query, canonicalHeaders, input.signedHeaders, input.payloadHash].join('\n');
  const day = input.amzDate.slice(0, 8);
  const scope = `${day}/${input.region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', input.amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${creds.secretAccessKey}`, day), input.region), 's3'), 'aws4_request');
  return createHmac('sha256', key).update(toSign).digest('hex');
}

describe('s3', () => {
  it('s3_get_object sends a correctly signed HEAD and answers metadata', async () => {
    const r = await s3.run('s3_get_object', params);
    const req = s3.expectRequest('s3_get_object', 'HEAD', OBJECT, { headers: { 'x-amz-content-sha256': sha256('') } });
    const auth = String(req.headers.authorization);
    const m = /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/(\d{8})\/eu-central-1\/s3\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(auth);
    expect(m, auth).not.toBeNull();
    expect(m![2]).toBe('host;x-amz-content-sha256;x-amz-date');
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    expect(
      expectedSignature({ method: 'HEAD', path: req.path, query: req.query, headers, signedHeaders: m![2]!, payloadHash: sha256(''), amzDate: headers['x-amz-date']!, region: 'eu-central-1' }),
    ).toBe(m![3]);
    expect(r).toMatchObject({
      success: true,
      output: {
        metadata: {
          fileType: 'application/pdf',
          size: 52311,
          name: 'q3 plan.pdf',
          lastModified: AUTOMATION_FIXTURES.s3Headers['last-modified'],
          etag: AUTOMATION_FIXTURES.s3Headers.etag,
        },
      },
    });
  });

  it('s3_get_object answers a presigned GET link valid 3600 seconds whose signature verifies', async () => {
    const r = await s3.run('s3_get_object', params);
    const link = new URL(r.success ? String((r.output as { url: string }).url) : '');
    expect(`${link.origin}${link.pathname}`).toBe(`${s3.fake.url}${OBJECT}`);
    const q = Object.fromEntries(link.searchParams);
    expect(q).toMatchObject({ 'X-Amz-Algorithm': 'AWS4-HMAC-SHA256', 'X-Amz-Expires': '3600', 'X-Amz-SignedHeaders': 'host' });
    expect(q['X-Amz-Credential']).toMatch(/^AKIDEXAMPLE\/\d{8}\/eu-central-1\/s3\/aws4_request$/);
    expect(
      expectedSignature({ method: 'GET', path: link.pathname, query: q, headers: { host: link.host }, signedHeaders: 'host', payloadHash: 'UNSIGNED-PAYLOAD', amzDate: q['X-Amz-Date']!, region: 'eu-central-1' }),
    ).toBe(q['X-Amz-Signature']);
  });

  it('s3_get_object: missing keys, a missing object and denied access give messages', async () => {
    await s3.expectError('s3_get_object', { ...params, accessKeyId: '' }, 'Access Key ID is required');
    await s3.expectError('s3_get_object', { ...params, secretAccessKey: ' ' }, 'Secret Access Key is required');
    await s3.expectError('s3_get_object', { ...params, objectKey: 'missing.txt' }, 'S3 object not found: missing.txt in bucket weft-files');
    s3.fake.once('HEAD', OBJECT, { status: 403 });
    await s3.expectError('s3_get_object', params, 'Access denied to the S3 object. Please check your access keys and the bucket policy.');
  });

  it('§7: the S3 block sends exactly accessKeyId, secretAccessKey, region, bucketName and objectKey, parsed from the object URL', async () => {
    // The catalogue's placeholder object URL (bucket `bucket-name`, region `region`) with the fake's key.
    const { toolId, params: payload } = blockPayload('s3', { ...creds, s3Uri: new URL('/reports/q3%20plan.pdf', S3_URL_EXAMPLE).href });
    expect(toolId).toBe('s3_get_object');
    expect(Object.keys(payload).sort()).toEqual(['accessKeyId', 'bucketName', 'objectKey', 'region', 'secretAccessKey']);
    expect(payload).toEqual({ ...params, bucketName: 'bucket-name', region: 'region' });
    const r = await s3.run(toolId, payload);
    const req = s3.expectRequest('s3_get_object', 'HEAD', '/s3/bucket-name/region/reports/q3%20plan.pdf', { headers: { 'x-amz-content-sha256': sha256('') } });
    expect(String(req.headers.authorization)).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/region\/s3\/aws4_request, /);
    expect(r).toMatchObject({ success: true, output: { metadata: { name: 'q3 plan.pdf', size: 52311 } } });
  });
});
