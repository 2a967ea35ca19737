import { isBlank, text } from '../paramValues.js';

/** Region used when the object URL's host names none. */
export const S3_DEFAULT_REGION = 'us-east-1';

/** The object URL form the spec's message shows (a placeholder, no real bucket): a value the parser accepts. */
export const S3_URL_EXAMPLE = 'https://bucket-name.s3.region.amazonaws.com/path/to/file';

/** The message for an object URL that does not name a bucket and a key. */
export const S3_URL_FORMAT_ERROR = `Invalid S3 Object URL format. Expected format: ${S3_URL_EXAMPLE}`;

/** Where an object lives, as the S3 tool takes it. */
export interface S3Location {
  bucketName: string;
  region: string;
  objectKey: string;
}

/**
 * Reads bucket (the host's first part), region (from `s3.<region>.` or `s3-<region>.` in the host,
 * default us-east-1) and key (the non-empty path) from an object URL.
 */
export function parseS3ObjectUrl(value: unknown): { ok: true; value: S3Location } | { ok: false; error: string } {
  let url: URL;
  try {
    url = new URL(text(value));
  } catch {
    return { ok: false, error: S3_URL_FORMAT_ERROR };
  }
  const host = /^([^.]+)\.s3(?:[.-]([a-z0-9-]+))?\.amazonaws\.com$/.exec(url.hostname);
  const objectKey = decodeURIComponent(url.pathname.replace(/^\/+/, ''));
  const bucketName = host?.[1];
  if (!bucketName || objectKey === '') return { ok: false, error: S3_URL_FORMAT_ERROR };
  const region = host?.[2] ?? S3_DEFAULT_REGION;
  return { ok: true, value: { bucketName, region, objectKey } };
}

/** S3 block rules: both keys and a well-formed object URL. */
export function validateS3(params: Record<string, unknown>): string | undefined {
  if (isBlank(params.accessKeyId)) return 'Access Key ID is required';
  if (isBlank(params.secretAccessKey)) return 'Secret Access Key is required';
  if (isBlank(params.s3Uri)) return 'S3 Object URL is required';
  const parsed = parseS3ObjectUrl(params.s3Uri);
  return parsed.ok ? undefined : parsed.error;
}
