/** The schemes an image is sent to a model by: fetched from http(s), or carried in a data: URL. */
const IMAGE_URL_SCHEMES = ['http:', 'https:', 'data:'];

/** An image URL shortened for a message (a data URL can be megabytes). */
export function shownImageUrl(url: string): string {
  return url.length > 80 ? `${url.slice(0, 77)}...` : url;
}

/**
 * Why an image URL cannot be sent to a model, or undefined: it must be an http(s) URL or a data: URL
 * (`also` names what else the caller takes, as Gemini its file URIs). Checked before any request, so a
 * typo is the user's to fix at once rather than the provider's 400 or a failed fetch tried again.
 */
export function imageUrlProblem(url: string, also: string[] = []): string | undefined {
  const kinds = ['an http(s) URL', 'a data: URL', ...also];
  const give = `give ${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1) ?? ''}`;
  if (!URL.canParse(url)) return `it is not a valid URL (${give})`;
  const scheme = new URL(url).protocol;
  if (!IMAGE_URL_SCHEMES.includes(scheme)) return `its scheme ${scheme} is not one an image is read from (${give})`;
  return undefined;
}
