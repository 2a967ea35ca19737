/**
 * A file a file-upload field holds: the web form keeps each chosen file inline in the block's value
 * as `{name, type, size, url}`, `url` a `data:` link of its content (web/src/panels/fields/Integrations.tsx).
 */
export interface UploadedFile {
  name: string;
  type: string;
  size: number;
  url: string;
}

function asUploadedFile(value: unknown): UploadedFile | undefined {
  // A link given as text (a reference resolved to a URL or data link) is a file without a name.
  if (typeof value === 'string') return value.trim() === '' ? undefined : { name: 'file', type: '', size: 0, url: value.trim() };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.url !== 'string' || v.url.trim() === '') return undefined;
  return {
    name: typeof v.name === 'string' && v.name !== '' ? v.name : 'file',
    type: typeof v.type === 'string' ? v.type : '',
    size: typeof v.size === 'number' ? v.size : 0,
    url: v.url.trim(),
  };
}

/** The files of a file-upload value (one file, a list, or nothing; a bare link counts as a file); entries without a link are dropped. */
export function uploadedFiles(value: unknown): UploadedFile[] {
  const items = Array.isArray(value) ? value : [value];
  return items.map(asUploadedFile).filter((f): f is UploadedFile => f !== undefined);
}
