import { list, obj, str } from '../http.js';

/** An RFC 822 plain-text message, base64url encoded as Gmail's `raw` field wants it. */
export function rawMessage(to: string, subject: string, body: string): string {
  const encodedSubject = /^[\x20-\x7e]*$/.test(subject) ? subject : `=?UTF-8?B?${Buffer.from(subject, 'utf8').toString('base64')}?=`;
  const mime = [`To: ${to}`, `Subject: ${encodedSubject}`, 'MIME-Version: 1.0', 'Content-Type: text/plain; charset="UTF-8"', '', body].join('\r\n');
  return Buffer.from(mime, 'utf8').toString('base64url');
}

/** A header of a Gmail message payload. */
export function header(payload: unknown, name: string): string {
  const h = list(obj(payload).headers).map(obj).find((x) => String(x.name).toLowerCase() === name.toLowerCase());
  return str(h?.value) ?? '';
}

/** The plain-text body of a Gmail payload (first text/plain part, else the HTML part with tags removed, else the top body). */
export function bodyText(payload: unknown): string {
  const decode = (part: unknown) => {
    const data = str(obj(obj(part).body).data);
    return data ? Buffer.from(data, 'base64url').toString('utf8') : '';
  };
  const walk = (part: unknown, type: string): unknown => {
    const p = obj(part);
    if (p.mimeType === type && str(obj(p.body).data)) return p;
    for (const child of list(p.parts)) {
      const found = walk(child, type);
      if (found) return found;
    }
    return undefined;
  };
  const plain = walk(payload, 'text/plain');
  if (plain) return decode(plain);
  const html = walk(payload, 'text/html');
  if (html) return decode(html).replace(/<[^>]+>/g, '').trim();
  return decode(payload);
}
