import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { once } from 'node:events';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { createSecureContext, createServer as createTlsServer, TLSSocket } from 'node:tls';
import {
  Server as GrpcServer,
  status as grpcStatus,
  type handleUnaryCall,
  ServerCredentials,
} from '@grpc/grpc-js';
import { WebSocketServer } from 'ws';

/**
 * Real local servers the non-HTTP monitor kinds are tested against (127.0.0.1 only): mail servers
 * that greet and upgrade with STARTTLS, a UDP echo, a WebSocket echo and a gRPC health service.
 */

export interface Running {
  port: number;
  close(): Promise<void>;
}

export type MailProtocol = 'smtp' | 'imap' | 'pop3';

const GREETING: Record<MailProtocol, string> = {
  smtp: '220 mail.test ESMTP ready',
  imap: '* OK [CAPABILITY IMAP4rev1 STARTTLS] mail.test ready',
  pop3: '+OK mail.test POP3 ready',
};

async function listening(server: Server): Promise<Running> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Answers one protocol's commands in clear text, upgrading on STARTTLS/STLS when it offers it. */
function converse(
  socket: Socket,
  protocol: MailProtocol,
  behaviour: { offersStartTls: boolean; greeting: string },
  certificate: { cert: string; key: string },
): void {
  socket.on('error', () => undefined);
  socket.write(`${behaviour.greeting}\r\n`);
  let buffered = '';
  const onData = (chunk: Buffer) => {
    buffered += chunk.toString('latin1');
    for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
      const line = buffered.slice(0, newline).replace(/\r$/, '');
      buffered = buffered.slice(newline + 1);
      const command = line.toUpperCase();
      if (command.startsWith('EHLO')) {
        socket.write(
          `250-mail.test\r\n250-SIZE 1000000\r\n${behaviour.offersStartTls ? '250-STARTTLS\r\n' : ''}250 8BITMIME\r\n`,
        );
      } else if (/^(STARTTLS|STLS|A STARTTLS)$/.test(command)) {
        if (!behaviour.offersStartTls) {
          socket.write(protocol === 'imap' ? 'A BAD not supported\r\n' : '-ERR not supported\r\n');
          continue;
        }
        socket.write(
          protocol === 'smtp'
            ? '220 go ahead\r\n'
            : protocol === 'imap'
              ? 'A OK begin TLS\r\n'
              : '+OK begin TLS\r\n',
        );
        socket.off('data', onData);
        const secure = new TLSSocket(socket, {
          isServer: true,
          secureContext: createSecureContext(certificate),
        });
        secure.on('error', () => undefined);
        secure.on('data', () => secure.end());
        return;
      } else socket.end();
    }
  };
  socket.on('data', onData);
}

/** A mail server of `protocol`: in clear with STARTTLS (unless `offersStartTls` is false), or TLS at once. */
export async function startMailServer(
  protocol: MailProtocol,
  certificate: { cert: string; key: string },
  options: { implicitTls?: boolean; offersStartTls?: boolean; greeting?: string } = {},
): Promise<Running> {
  const behaviour = {
    offersStartTls: options.offersStartTls ?? true,
    greeting: options.greeting ?? GREETING[protocol],
  };
  if (options.implicitTls) {
    const server = createTlsServer(certificate, (socket) => {
      socket.on('error', () => undefined);
      socket.write(`${behaviour.greeting}\r\n`);
      socket.on('data', () => socket.end());
    });
    return listening(server);
  }
  return listening(createServer((socket) => converse(socket, protocol, behaviour, certificate)));
}

/** A UDP server that answers each datagram with `answer(datagram)` (no answer: null). */
export async function startUdpServer(answer: (datagram: Buffer) => Buffer | null): Promise<Running> {
  const socket: UdpSocket = createSocket('udp4');
  socket.on('message', (datagram, from) => {
    const reply = answer(datagram);
    if (reply) socket.send(reply, from.port, from.address);
  });
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  return {
    port: socket.address().port,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** A WebSocket server (TLS when a certificate is given): `reply` answers each message; refused upgrades answer 403. */
export async function startWebSocketServer(
  options: {
    certificate?: { cert: string; key: string };
    protocols?: string[];
    requireHeader?: { name: string; value: string };
    /** A query parameter the upgrade must carry (as servers take a browser's token). */
    requireQuery?: { name: string; value: string };
    reply?: (message: string) => string | null;
    greet?: string;
  } = {},
): Promise<Running> {
  const http = options.certificate
    ? (await import('node:https')).createServer(options.certificate)
    : (await import('node:http')).createServer();
  const wss = new WebSocketServer({
    server: http,
    handleProtocols: (offered) => options.protocols?.find((p) => offered.has(p)) ?? false,
    verifyClient: (info, done) => {
      const wanted = options.requireHeader;
      if (wanted && info.req.headers[wanted.name.toLowerCase()] !== wanted.value) return done(false, 403);
      const query = options.requireQuery;
      const asked = new URL(info.req.url ?? '/', 'http://upgrade').searchParams.get(query?.name ?? '');
      if (query && asked !== query.value) return done(false, 403);
      done(true);
    },
  });
  wss.on('connection', (socket) => {
    if (options.greet) socket.send(options.greet);
    socket.on('message', (data) => {
      const answer = (options.reply ?? ((message: string) => message))(String(data));
      if (answer !== null) socket.send(answer);
    });
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  return {
    port: (http.address() as AddressInfo).port,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** grpc.health.v1 HealthCheckResponse status numbers. */
const SERVING = { SERVING: 1, NOT_SERVING: 2 } as const;

/** A gRPC server with the standard health service; `statuses` says each service's status ('' the server's). */
export async function startGrpcHealthServer(
  statuses: Record<string, keyof typeof SERVING>,
  certificate?: { cert: string; key: string },
): Promise<Running & { seenMetadata: Array<Record<string, unknown>> }> {
  const server = new GrpcServer();
  const seenMetadata: Array<Record<string, unknown>> = [];
  const check: handleUnaryCall<{ service: string }, number> = (call, callback) => {
    seenMetadata.push(call.metadata.getMap());
    const status = statuses[call.request.service];
    if (status === undefined) return callback({ code: grpcStatus.NOT_FOUND, details: 'unknown service' });
    callback(null, SERVING[status]);
  };
  server.register(
    '/grpc.health.v1.Health/Check',
    check,
    (value: number) => Buffer.from([0x08, value]),
    // HealthCheckRequest {string service = 1}: a short name's length fits one byte. An object, as
    // grpc-js takes a falsy message ('') for none.
    (bytes: Buffer) => ({ service: bytes.subarray(2, 2 + (bytes[1] ?? 0)).toString('utf8') }),
    'unary',
  );
  const credentials = certificate
    ? ServerCredentials.createSsl(null, [
        { cert_chain: Buffer.from(certificate.cert), private_key: Buffer.from(certificate.key) },
      ])
    : ServerCredentials.createInsecure();
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', credentials, (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return {
    port,
    seenMetadata,
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}
