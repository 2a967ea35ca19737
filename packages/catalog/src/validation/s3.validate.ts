import { isBlank, text } from '../paramValues.js';

/** Region used when the object URL's host names none. */
export const S3_DEFAULT_REGION = 'us-east-1';

/** The domain of S3's object URLs (`<bucket>.s3.<region>.<domain>`), the parser's default. */
const S3_DOMAIN = 'amazonaws.com';

/** The object URL form of a domain (a placeholder, no real bucket or region), as the spec's message shows it. */
const urlExample = (domain: string) => `https://bucket-name.s3.region.${domain}/path/to/file`;

/** The object URL form the spec's message shows (a placeholder, no real bucket): a value the parser accepts. */
export const S3_URL_EXAMPLE = urlExample(S3_DOMAIN);

/** The spec's message for an object URL that does not name a bucket and a key (`{host}` the domain's form). */
const formatError = (domain: string) => `Invalid S3 Object URL format. Expected format: ${urlExample(domain)}`;

/** The message for an object URL that does not name a bucket and a key. */
export const S3_URL_FORMAT_ERROR = formatError(S3_DOMAIN);

/** Where an object lives, as the S3 tool takes it. */
export interface S3Location {
  bucketName: string;
  region: string;
  objectKey: string;
}

/**
 * Reads bucket (the host's first part), region (from `s3.<region>.` or `s3-<region>.` in the host,
 * default us-east-1) and key (the non-empty path) from an object URL of the domain (S3's unless
 * another is given: the parser's tests name a reserved `.invalid` one, never a real host).
 */
export function parseS3ObjectUrl(value: unknown, domain: string = S3_DOMAIN): { ok: true; value: S3Location } | { ok: false; error: string } {
  let url: URL;
  try {
    url = new URL(text(value));
  } catch {
    return { ok: false, error: formatError(domain) };
  }
  const host = new RegExp(`^([^.]+)\\.s3(?:[.-]([a-z0-9-]+))?\\.${domain.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`).exec(url.hostname);
  let objectKey: string;
  try {
    objectKey = decodeURIComponent(url.pathname.replace(/^\/+/, ''));
  } catch {
    return { ok: false, error: formatError(domain) };
  }
  const bucketName = host?.[1];
  if (!bucketName || objectKey === '') return { ok: false, error: formatError(domain) };
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
