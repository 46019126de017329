import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A local SMTP server on 127.0.0.1 (no TLS, no AUTH) that takes every mail and keeps only who it
 * was for and when (the bodies of 10,000 mails are not the benchmark's concern): `smtp://` URL
 * without credentials. test/support/mail-receiver.ts is the tests' receiver, which keeps each mail.
 */
export interface SmtpSink {
  url: string;
  /** Mails taken per recipient address. */
  received: Map<string, number>;
  /** Mails taken so far (each recipient of each mail counted). */
  total(): number;
  /** When the last mail was taken (ms since the epoch; 0 before any). */
  lastAt(): number;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const received = new Map<string, number>();
  let total = 0;
  let lastAt = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // 8 mails in flight per notifier, and a killed notifier's sockets may linger: room for both.
    maxClients: 100,
    onData: (stream, session, callback) => {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        for (const { address } of session.envelope.rcptTo) {
          received.set(address, (received.get(address) ?? 0) + 1);
          total++;
        }
        lastAt = Date.now();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    received,
    total: () => total,
    lastAt: () => lastAt,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
