import type { ProbeError, TlsObservation } from '../checks/index.js';
import { LineReader, shownLine } from './line-reader.js';
import {
  type ConnectorOptions,
  connectPinned,
  type HopConnection,
  newHopConnection,
  untilAborted,
  upgradeTls,
} from './pinned-connector.js';
import { classifyProbeError, ProbeFailure } from './probe-error.js';

export const MAIL_PROTOCOLS = ['smtp', 'imap', 'pop3'] as const;
export type MailProtocol = (typeof MAIL_PROTOCOLS)[number];
export const MAIL_SECURITY = ['starttls', 'tls', 'none'] as const;
export type MailSecurity = (typeof MAIL_SECURITY)[number];

export interface MailProbeRequest {
  protocol: MailProtocol;
  host: string;
  port: number;
  /** `tls`: a handshake at once (465, 993, 995); `starttls`: the greeting in clear, then an upgrade. */
  security: MailSecurity;
  /** Bounds the whole probe. */
  timeoutMs: number;
}

export interface MailObservation {
  startedAt: Date;
  address: string | null;
  timings: {
    dnsMs: number;
    connectMs: number;
    /** From connected (or the handshake done, with `tls`) to the greeting's last line. */
    greetingMs: number | null;
    /** The STARTTLS exchange (EHLO and STARTTLS for SMTP), before the handshake. */
    starttlsMs: number | null;
    tlsMs: number | null;
    totalMs: number;
  };
  /** The greeting's first line, as shown. */
  greeting: string | null;
  tls: TlsObservation | null;
  /** DNS, BLOCKED_TARGET, CONNECT, TLS, TIMEOUT, GREETING, STARTTLS or PROTOCOL, in words. */
  error: ProbeError | null;
}

export type MailProbeOptions = Omit<ConnectorOptions, 'clientCertificate'>;

const roundMs = (ms: number) => Math.round(ms * 100) / 100;

/** How each protocol greets, is asked to start TLS, and is left. */
const PROTOCOL = {
  smtp: {
    greeted: (line: string) => line.startsWith('220'),
    lastOfReply: (line: string) => !/^\d{3}-/.test(line),
    quit: 'QUIT\r\n',
  },
  imap: {
    greeted: (line: string) => /^\* (OK|PREAUTH)\b/i.test(line),
    lastOfReply: () => true,
    quit: 'Z LOGOUT\r\n',
  },
  pop3: { greeted: (line: string) => line.startsWith('+OK'), lastOfReply: () => true, quit: 'QUIT\r\n' },
} satisfies Record<
  MailProtocol,
  { greeted(line: string): boolean; lastOfReply(line: string): boolean; quit: string }
>;

/** Asks the server to start TLS; throws a STARTTLS failure when it will not. */
async function startTls(protocol: MailProtocol, reader: LineReader): Promise<void> {
  const refused = (said: string) =>
    new ProbeFailure('STARTTLS', `the server refused STARTTLS: ${JSON.stringify(shownLine(said))}`);
  if (protocol === 'smtp') {
    reader.write('EHLO webmon.invalid\r\n');
    const ehlo = await reader.reply(PROTOCOL.smtp.lastOfReply);
    if (!ehlo[0]?.startsWith('250')) throw refused(ehlo[0] ?? '');
    if (!ehlo.some((line) => /^250[- ]STARTTLS\b/i.test(line)))
      throw new ProbeFailure('STARTTLS', 'the server does not offer STARTTLS (not in its EHLO answer)');
    reader.write('STARTTLS\r\n');
    const [answer = ''] = await reader.reply(PROTOCOL.smtp.lastOfReply);
    if (!answer.startsWith('220')) throw refused(answer);
    return;
  }
  if (protocol === 'imap') {
    reader.write('A STARTTLS\r\n');
    // Untagged lines (a CAPABILITY) may come before the tagged answer.
    const lines = await reader.reply((line) => line.startsWith('A '));
    const answer = lines.at(-1) ?? '';
    if (!/^A OK\b/i.test(answer)) throw refused(answer);
    return;
  }
  reader.write('STLS\r\n');
  const answer = await reader.line();
  if (!answer.startsWith('+OK')) throw refused(answer);
}

/**
 * Whether a mail server answers as its clients meet it: connected through the SSRF guard, the
 * greeting read and judged (SMTP 220, IMAP `* OK`, POP3 `+OK`), TLS at once or after STARTTLS
 * with the certificate observed, each step timed, then left politely. One deadline for all of it;
 * failures come back in `error`, and every socket is destroyed before it returns.
 */
export async function probeMail(
  request: MailProbeRequest,
  options: MailProbeOptions,
): Promise<MailObservation> {
  const startedAt = new Date();
  const started = performance.now();
  const hop: HopConnection = newHopConnection();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new ProbeFailure('TIMEOUT', '')), request.timeoutMs);
  const protocol = PROTOCOL[request.protocol];
  let step: 'connect' | 'greeting' | 'starttls' | 'tls' = 'connect';
  let greeting: string | null = null;
  let greetingMs: number | null = null;
  let starttlsMs: number | null = null;

  const finish = (error: ProbeError | null): MailObservation => ({
    startedAt,
    address: hop.address,
    timings: {
      dnsMs: roundMs(hop.dnsMs),
      connectMs: roundMs(hop.connectMs),
      greetingMs: greetingMs === null ? null : roundMs(greetingMs),
      starttlsMs: starttlsMs === null ? null : roundMs(starttlsMs),
      tlsMs: request.security === 'none' || hop.tls === null ? null : roundMs(hop.tlsMs),
      totalMs: roundMs(performance.now() - started),
    },
    greeting,
    tls: hop.tls,
    error,
  });
  const where = () => `${hop.address}:${request.port}`;
  const timedOut = (): ProbeError => {
    const within = `within ${request.timeoutMs} ms`;
    const what = {
      connect: hop.phase === 'dns' ? `DNS did not answer for ${request.host}` : `no connection to ${where()}`,
      greeting: `connected to ${where()}, but no greeting`,
      starttls: `${where()} did not answer the STARTTLS request`,
      tls: `the TLS handshake with ${where()} did not finish`,
    }[step];
    return { code: 'TIMEOUT', message: `${what} ${within}` };
  };

  try {
    const socket = await untilAborted(
      connectPinned(
        { ...options, clientCertificate: null },
        hop,
        { hostname: request.host, port: request.port, tls: request.security === 'tls' ? {} : null },
        abort.signal,
      ),
      abort.signal,
    );
    step = 'greeting';
    const reader = new LineReader(socket, abort.signal);
    const greetingStarted = performance.now();
    const lines = await reader.reply(protocol.lastOfReply);
    greetingMs = performance.now() - greetingStarted;
    greeting = shownLine(lines[0] ?? '');
    if (!protocol.greeted(lines.at(-1) ?? ''))
      return finish({
        code: 'GREETING',
        message: `${where()} did not greet as a ${request.protocol.toUpperCase()} server: ${JSON.stringify(greeting)}`,
      });
    if (request.security === 'starttls') {
      step = 'starttls';
      const asked = performance.now();
      await startTls(request.protocol, reader);
      starttlsMs = performance.now() - asked;
      step = 'tls';
      reader.detach();
      const secure = await untilAborted(
        upgradeTls({ ...options, clientCertificate: null }, hop, socket, request.host),
        abort.signal,
      );
      secure.write(protocol.quit);
    } else reader.write(protocol.quit);
    return finish(null);
  } catch (error) {
    if (abort.signal.aborted) return finish(timedOut());
    if (error instanceof ProbeFailure) return finish({ code: error.code, message: error.message });
    const phase = step === 'connect' ? hop.phase : step === 'tls' ? 'tls' : 'request';
    return finish(classifyProbeError(hop.tlsAlert ?? error, phase, false));
  } finally {
    clearTimeout(timer);
    // The TLS socket before the TCP socket it wraps (the other order can crash Node 20).
    for (const socket of hop.sockets.toReversed()) socket.destroy();
  }
}
