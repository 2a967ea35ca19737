import dns from 'node:dns/promises';
import { isIP } from 'node:net';
import nodemailer from 'nodemailer';
import { ToolError } from '../tools/serviceTool.js';
import { addressAllowed, type AddressPolicy } from '../net/addressPolicy.js';
import { redaction } from '../tools/runtime/errors.js';
import { json, objectBody, str, type Route } from './router.js';

const SEND_TIMEOUT_MS = 30_000;

/** The SMTP host's addresses, refused like every outbound request when private (unless allowed); answers the address to connect to. */
async function checkedHost(host: string, policy: AddressPolicy): Promise<string> {
  const addresses = isIP(host) ? [host] : (await dns.lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  if (addresses.length === 0) throw new ToolError(`Failed to send email: cannot resolve ${host}`, 400);
  if (addresses.some((a) => !addressAllowed(policy, host, a))) throw new ToolError(`Outbound request refused: ${host} is a loopback, private, link-local or reserved address`, 400);
  return addresses[0] as string;
}

/** `POST /api/tools/email/send {host, port, username, password, to, subject, body}` → `{messageId, sentAt}` over real SMTP (nodemailer). */
export function emailRoutes(policy: AddressPolicy): Route[] {
  return [
    {
      method: 'POST',
      path: '/tools/email/send',
      async handle(req) {
        const b = objectBody(req.body);
        const host = str(b, 'host').trim();
        const port = Number(b.port ?? 587);
        const to = str(b, 'to').trim();
        for (const [field, value] of [['host', host], ['to', to], ['subject', str(b, 'subject')]] as const) {
          if (!value) throw new ToolError(`${field} is required`, 400);
        }
        if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new ToolError('port must be a number from 1 to 65535', 400);
        const password = str(b, 'password');
        const username = str(b, 'username');
        const address = await checkedHost(host, policy);
        const transport = nodemailer.createTransport({
          host: address,
          port,
          secure: port === 465,
          ...(username ? { auth: { user: username, pass: password } } : {}),
          tls: { servername: isIP(host) ? undefined : host },
          connectionTimeout: SEND_TIMEOUT_MS,
          greetingTimeout: SEND_TIMEOUT_MS,
          socketTimeout: SEND_TIMEOUT_MS,
        });
        // A cancelled run's call closes the SMTP connection (sendMail then fails and the answer is dropped).
        const abandon = () => transport.close();
        req.signal?.addEventListener('abort', abandon, { once: true });
        try {
          const info = await transport.sendMail({ from: str(b, 'from') || username || `weft@${host}`, to, subject: str(b, 'subject'), text: str(b, 'body') });
          const output = { success: true, messageId: info.messageId, sentAt: new Date().toISOString() };
          return json({ ...output, output });
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          throw new ToolError(`Failed to send email: ${redaction([password, username]).text(message)}`, 502);
        } finally {
          req.signal?.removeEventListener('abort', abandon);
          transport.close();
        }
      },
    },
  ];
}
