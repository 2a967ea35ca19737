import type { BlockConfig } from '../types.js';
import { parseS3ObjectUrl } from '../validation/s3.validate.js';
import { secretField, shortInput } from './fields.js';

/** S3: fetch an object's metadata and a signed download link. */
export const s3Block: BlockConfig = {
  type: 's3',
  name: 'S3',
  description: 'View S3 files',
  longDescription:
    'Retrieve and view files from Amazon S3 buckets using presigned URLs. Gives the object metadata and a download link valid for one hour.',
  docsLink: 'https://docs.weft.dev/tools/s3',
  category: 'tools',
  bgColor: '#E0E0E0',
  icon: 'S3Icon',
  subBlocks: [
    secretField('accessKeyId', 'Access Key ID', 'Your AWS Access Key ID'),
    secretField('secretAccessKey', 'Secret Access Key', 'Your AWS Secret Access Key'),
    shortInput('s3Uri', 'S3 Object URL', 'e.g., https://bucket-name.s3.region.amazonaws.com/path/to/file'),
  ],
  tools: {
    access: ['s3_get_object'],
    config: {
      tool: () => 's3_get_object',
      params: (p) => {
        const parsed = parseS3ObjectUrl(p.s3Uri);
        if (!parsed.ok) throw new Error(parsed.error);
        return { accessKeyId: p.accessKeyId, secretAccessKey: p.secretAccessKey, ...parsed.value };
      },
    },
  },
  inputs: {
    accessKeyId: { type: 'string', required: true },
    secretAccessKey: { type: 'string', required: true },
    s3Uri: { type: 'string', required: true },
  },
  outputs: { url: 'string', metadata: 'json' },
};
