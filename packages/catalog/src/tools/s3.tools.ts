import type { ToolConfig } from '../types.js';
import { defineTool, need } from './define.js';

/** Lifetime of the signed download link, in seconds. */
export const S3_LINK_EXPIRY_SECONDS = 3600;

/** S3 object metadata and a signed download link. */
export const s3Tools: ToolConfig[] = [
  defineTool({
    id: 's3_get_object',
    name: 'S3 Get Object',
    description: 'Retrieve an object from an AWS S3 bucket: its metadata and a presigned download URL valid for one hour',
    params: {
      accessKeyId: need('string', 'user', 'Your AWS Access Key ID'),
      secretAccessKey: need('string', 'user', 'Your AWS Secret Access Key'),
      region: need('string', 'hidden', 'AWS region of the bucket'),
      bucketName: need('string', 'hidden', 'S3 bucket name'),
      objectKey: need('string', 'hidden', 'Key of the object in the bucket'),
    },
    request: { method: 'HEAD', url: 'https://{bucketName}.s3.{region}.amazonaws.com/{objectKey}', headers: {} },
  }),
];
