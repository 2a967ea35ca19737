import aws4 from 'aws4';
import { S3_DEFAULT_REGION, S3_LINK_EXPIRY_SECONDS, text } from '@weft/catalog';
import { ToolError, type ServiceTool } from '../../serviceTool.js';
import { fillTemplate, requireText, serviceTool } from '../http.js';

/** An object key as a URL path: each segment encoded, slashes kept. */
const keyPath = (key: string) => `/${key.split('/').map(encodeURIComponent).join('/')}`;

/**
 * S3 object metadata by a signed HEAD (Signature V4, signed by the aws4 library), plus a presigned GET
 * link valid for S3_LINK_EXPIRY_SECONDS (3600 s). Payload keys (§7): accessKeyId, secretAccessKey,
 * region, bucketName, objectKey.
 */
export const s3Tools: ServiceTool[] = [
  serviceTool('s3_get_object', async (p, io) => {
    const credentials = {
      accessKeyId: requireText(p, 'accessKeyId', 'Access Key ID is required'),
      secretAccessKey: requireText(p, 'secretAccessKey', 'Secret Access Key is required'),
    };
    const bucketName = requireText(p, 'bucketName', 'Bucket name is required');
    const objectKey = requireText(p, 'objectKey', 'Object key is required');
    const region = text(p.region) || S3_DEFAULT_REGION;
    const base = new URL(fillTemplate(io.baseUrl('s3'), { bucketName, region }));
    const prefix = base.pathname.replace(/\/+$/, '');
    const path = `${prefix}${keyPath(objectKey)}`;

    const head = aws4.sign({ host: base.host, path, method: 'HEAD', service: 's3', region, headers: {} }, credentials);
    const headers = Object.fromEntries(Object.entries(head.headers ?? {}).filter(([k]) => k.toLowerCase() !== 'host').map(([k, v]) => [k, String(v)]));
    const res = await io.fetch(`${base.protocol}//${base.host}${path}`, { method: 'HEAD', headers });
    if (res.status === 404) throw new ToolError(`S3 object not found: ${objectKey} in bucket ${bucketName}`, 404);
    if (res.status === 403) throw new ToolError('Access denied to the S3 object. Please check your access keys and the bucket policy.', 403);
    if (!res.ok) throw new ToolError(`S3 request failed: ${res.status} ${res.statusText}`, res.status);

    const link = aws4.sign({ host: base.host, path: `${path}?X-Amz-Expires=${S3_LINK_EXPIRY_SECONDS}`, method: 'GET', service: 's3', region, signQuery: true }, credentials);
    const size = Number(res.headers.get('content-length'));
    return {
      url: `${base.protocol}//${base.host}${link.path ?? ''}`,
      metadata: {
        fileType: res.headers.get('content-type') ?? 'application/octet-stream',
        size: Number.isFinite(size) ? size : 0,
        name: objectKey.split('/').pop() ?? objectKey,
        lastModified: res.headers.get('last-modified') ?? undefined,
        etag: res.headers.get('etag') ?? undefined,
      },
    };
  }),
];
