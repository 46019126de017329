import { createSocket, type RemoteInfo, type Socket as UdpSocket } from 'node:dgram';
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import * as dnsPacket from 'dns-packet';

/** The records of one name. A name with a CNAME answers other types through its target, as a resolver would. */
export interface DnsZoneRecords {
  A?: string[];
  AAAA?: string[];
  CNAME?: string;
  NS?: string[];
  MX?: Array<{ priority: number; exchange: string }>;
  /** Each record as its character-strings (chunks), as on the wire. */
  TXT?: string[][];
  CAA?: Array<{ flags?: number; tag: 'issue' | 'issuewild' | 'iodef'; value: string }>;
}

/** Records by name; names match case-insensitively, with or without a trailing dot. */
export type DnsZone = Record<string, DnsZoneRecords>;

export interface DnsServerOptions {
  /** Names answered with SERVFAIL. */
  servfail?: Iterable<string>;
  /** Names answered with REFUSED. */
  refused?: Iterable<string>;
  /** Drop every query unanswered (a resolver that times out). */
  silent?: boolean;
}

export interface ReceivedDnsQuery {
  name: string;
  type: string;
  transport: 'udp' | 'tcp';
}

/**
 * An authoritative-looking DNS server on 127.0.0.1 for tests: UDP and TCP on one port, answering
 * from a zone that can be replaced at any time. Unknown names answer NXDOMAIN, a known name without
 * the asked type answers NOERROR with no records (NODATA); a UDP answer larger than the client's
 * buffer is truncated (TC) so the client retries over TCP.
 */
export interface DnsServer {
  /** `127.0.0.1:<port>`, as a resolver list takes it. */
  address: string;
  port: number;
  /** Every question received, in order. */
  queries: ReceivedDnsQuery[];
  setZone(zone: DnsZone): void;
  /** Replaces the failure options (servfail, refused, silent). */
  setOptions(options: DnsServerOptions): void;
  close(): Promise<void>;
}

const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;
const canonical = (name: string) => name.toLowerCase().replace(/\.$/, '');
const MAX_CNAME_CHAIN = 8;

function lookupZone(
  zone: Map<string, DnsZoneRecords>,
  question: dnsPacket.Question,
): { rcode: number; answers: dnsPacket.Answer[] } {
  const answers: dnsPacket.Answer[] = [];
  let name = question.name;
  for (let hop = 0; hop <= MAX_CNAME_CHAIN; hop++) {
    const records = zone.get(canonical(name));
    // A name reached through a CNAME that is not in the zone leaves the chain as is (NOERROR).
    if (!records) return { rcode: hop === 0 ? RCODE.NXDOMAIN : RCODE.NOERROR, answers };
    const base = { name, ttl: 60, class: 'IN' as const };
    if (records.CNAME !== undefined && question.type !== 'CNAME') {
      answers.push({ ...base, type: 'CNAME', data: records.CNAME });
      name = records.CNAME;
      continue;
    }
    switch (question.type) {
      case 'A':
      case 'AAAA':
      case 'NS':
        for (const data of records[question.type] ?? []) answers.push({ ...base, type: question.type, data });
        break;
      case 'CNAME':
        if (records.CNAME !== undefined) answers.push({ ...base, type: 'CNAME', data: records.CNAME });
        break;
      case 'MX':
        for (const { priority, exchange } of records.MX ?? [])
          answers.push({ ...base, type: 'MX', data: { preference: priority, exchange } });
        break;
      case 'TXT':
        for (const data of records.TXT ?? []) answers.push({ ...base, type: 'TXT', data });
        break;
      case 'CAA':
        for (const { flags = 0, tag, value } of records.CAA ?? [])
          answers.push({ ...base, type: 'CAA', data: { flags, tag, value } });
        break;
    }
    return { rcode: RCODE.NOERROR, answers };
  }
  return { rcode: RCODE.SERVFAIL, answers: [] };
}

/** Listens on `port` of 127.0.0.1; false when it is taken. */
function listenTcp(server: Server, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const onError = () => resolve(false);
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve(true);
    });
  });
}

/** A UDP socket on a free port of 127.0.0.1 with `tcp` listening on the same port number. */
async function bindBoth(
  tcp: Server,
  onMessage: (socket: UdpSocket, message: Buffer, peer: RemoteInfo) => void,
): Promise<UdpSocket> {
  // UDP takes a free port first; TCP then wants the same number, which another process may hold.
  for (let attempt = 0; attempt < 10; attempt++) {
    const socket = createSocket('udp4');
    socket.on('message', (message, peer) => onMessage(socket, message, peer));
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, '127.0.0.1', resolve);
    });
    // A send that fails (the client went away) must not end the test process.
    socket.on('error', () => {});
    if (await listenTcp(tcp, socket.address().port)) return socket;
    socket.close();
  }
  throw new Error('no port free for both UDP and TCP on 127.0.0.1');
}

/** Starts the server; `close` it when done. */
export async function startDnsServer(
  initialZone: DnsZone = {},
  options: DnsServerOptions = {},
): Promise<DnsServer> {
  let zone = new Map<string, DnsZoneRecords>();
  let servfail = new Set<string>();
  let refused = new Set<string>();
  let silent = false;
  const queries: ReceivedDnsQuery[] = [];

  const setZone = (next: DnsZone) => {
    zone = new Map(Object.entries(next).map(([name, records]) => [canonical(name), records]));
  };
  const setOptions = (next: DnsServerOptions) => {
    servfail = new Set([...(next.servfail ?? [])].map(canonical));
    refused = new Set([...(next.refused ?? [])].map(canonical));
    silent = next.silent ?? false;
  };
  setZone(initialZone);
  setOptions(options);

  /** The answer to a query, or null to stay silent; `maxBytes` truncates a UDP answer. */
  const answer = (message: Buffer, transport: 'udp' | 'tcp', maxBytes: number): Buffer | null => {
    let query: dnsPacket.DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return null;
    }
    const question = query.questions?.[0];
    if (question) queries.push({ name: question.name, type: question.type, transport });
    if (silent || !question) return null;
    const name = canonical(question.name);
    const { rcode, answers } = servfail.has(name)
      ? { rcode: RCODE.SERVFAIL, answers: [] }
      : refused.has(name)
        ? { rcode: RCODE.REFUSED, answers: [] }
        : lookupZone(zone, question);
    // dns-packet keeps the RCODE in the low four bits of `flags`.
    const flags =
      rcode |
      dnsPacket.AUTHORITATIVE_ANSWER |
      dnsPacket.RECURSION_AVAILABLE |
      ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED);
    const response = { type: 'response' as const, id: query.id, flags, questions: [question], answers };
    const encoded = dnsPacket.encode(response);
    if (encoded.length <= maxBytes) return encoded;
    return dnsPacket.encode({ ...response, flags: flags | dnsPacket.TRUNCATED_RESPONSE, answers: [] });
  };

  const onUdpMessage = (udp: UdpSocket, message: Buffer, peer: RemoteInfo) => {
    // The client's EDNS buffer size, else the classic 512 bytes.
    let maxBytes = 512;
    try {
      const opt = dnsPacket.decode(message).additionals?.find((a) => a.type === 'OPT');
      if (opt && 'udpPayloadSize' in opt) maxBytes = Math.max(512, opt.udpPayloadSize);
    } catch {}
    const reply = answer(message, 'udp', maxBytes);
    if (reply) udp.send(reply, peer.port, peer.address);
  };

  const sockets = new Set<Socket>();
  const tcp: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      // Each message is framed by its two-byte length (RFC 1035 4.2.2).
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        const size = pending.readUInt16BE(0);
        const reply = answer(pending.subarray(2, 2 + size), 'tcp', 65_535);
        pending = pending.subarray(2 + size);
        if (reply)
          socket.write(Buffer.concat([Buffer.from([reply.length >> 8, reply.length & 0xff]), reply]));
      }
    });
  });

  const udp = await bindBoth(tcp, (socket, message, peer) => onUdpMessage(socket, message, peer));
  const port = udp.address().port;

  return {
    address: `127.0.0.1:${port}`,
    port,
    queries,
    setZone,
    setOptions,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        once(tcp.close(), 'close'),
      ]);
    },
  };
}
