import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message an SMTP fake accepted: envelope, login and the raw message text. */
export interface ReceivedMail {
  from: string;
  to: string[];
  /** The user name given at login, when the client logged in. */
  username?: string;
  /** The raw RFC 5322 message (headers and body). */
  raw: string;
}

export interface SmtpFake {
  host: string;
  port: number;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

export interface SmtpFakeOptions {
  /** When given, login is required and only this user and password are accepted (others answer 535). */
  credentials?: { username: string; password: string };
}

/**
 * A local SMTP server (plain, no TLS) that keeps every message it accepts, so the email tool is
 * tested against real SMTP without reaching a mail host.
 */
export async function createSmtpFake(opts: SmtpFakeOptions = {}): Promise<SmtpFake> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: opts.credentials ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !opts.credentials,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      const c = opts.credentials;
      if (c && auth.username === c.username && auth.password === c.password) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          ...(typeof session.user === 'string' ? { username: session.user } : {}),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
