import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The account that authenticated. */
  user: string | undefined;
  raw: string;
}

/**
 * A local SMTP server on 127.0.0.1 (no TLS) that accepts mail from one account and records it,
 * or answers every message with `reject` (an SMTP error code and text).
 */
export interface MailReceiver {
  port: number;
  mails: ReceivedMail[];
  reject: { code: number; message: string } | null;
  close(): Promise<void>;
}

export async function startMailReceiver(account: {
  username: string;
  password: string;
}): Promise<MailReceiver> {
  const receiver: MailReceiver = { port: 0, mails: [], reject: null, close: async () => {} };
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    onAuth: (auth, _session, callback) =>
      auth.username === account.username && auth.password === account.password
        ? callback(null, { user: auth.username })
        : callback(new Error('Invalid username or password')),
    onData: (stream, session, callback) => {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8');
      });
      stream.on('end', () => {
        const { reject } = receiver;
        if (reject) return callback(Object.assign(new Error(reject.message), { responseCode: reject.code }));
        receiver.mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: session.user as string | undefined,
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.server.address() as AddressInfo).port;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return receiver;
}
