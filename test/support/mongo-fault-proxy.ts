import { once } from 'node:events';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

/**
 * The bytes that open a command on a collection in a MongoDB OP_MSG: its first BSON element, a
 * string named after the command (`insert`, `update` …) holding the collection's name.
 */
export function commandOn(command: string, collection: string): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32LE(Buffer.byteLength(collection) + 1);
  return Buffer.concat([
    Buffer.from([0x02]),
    Buffer.from(`${command}\0`),
    length,
    Buffer.from(`${collection}\0`),
  ]);
}

interface Fault {
  pattern: Buffer;
  /** Holds the message (and what follows on its connection) this long; undefined: drops the connection. */
  delayMs?: number;
  seen: () => void;
}

/**
 * A TCP proxy in front of a MongoDB server (127.0.0.1) that can fail one command, as a real
 * outage does to one operation: `delayOnce` holds the first client message containing a command's
 * bytes for a while (a stall on that one write), `dropOnce` cuts that message's connection before it
 * reaches the server (the driver sees a network error). Everything else passes through.
 */
export interface MongoFaultProxy {
  /** The given MongoDB URL with its host and port replaced by the proxy's. */
  url: string;
  /** Resolves when the matching message arrived (and is being held). */
  delayOnce(pattern: Buffer, ms: number): Promise<void>;
  /** Resolves when the matching message arrived and its connection was cut. */
  dropOnce(pattern: Buffer): Promise<void>;
  close(): Promise<void>;
}

export async function startMongoFaultProxy(mongoUrl: string): Promise<MongoFaultProxy> {
  const upstream = new URL(mongoUrl);
  const faults: Fault[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const server = connect(Number(upstream.port || 27017), upstream.hostname);
    sockets.add(client).add(server);
    let held: Promise<void> = Promise.resolve();
    const cut = () => {
      client.destroy();
      server.destroy();
    };
    client.on('data', (chunk: Buffer) => {
      const index = faults.findIndex((fault) => chunk.includes(fault.pattern));
      const fault = index >= 0 ? faults.splice(index, 1)[0] : undefined;
      if (fault && fault.delayMs === undefined) {
        fault.seen();
        cut();
        return;
      }
      if (fault) {
        fault.seen();
        const delay = fault.delayMs;
        held = held.then(() => new Promise((resolve) => setTimeout(resolve, delay)));
      }
      // In order: a chunk after a held one waits behind it.
      void held.then(() => server.write(chunk));
    });
    server.on('data', (chunk: Buffer) => client.write(chunk));
    for (const socket of [client, server]) {
      socket.on('error', cut);
      socket.on('close', () => {
        sockets.delete(socket);
        cut();
      });
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const proxied = new URL(mongoUrl);
  proxied.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const add = (pattern: Buffer, delayMs?: number) =>
    new Promise<void>((seen) => {
      faults.push({ pattern, delayMs, seen });
    });
  return {
    url: proxied.toString(),
    delayOnce: (pattern, ms) => add(pattern, ms),
    dropOnce: (pattern) => add(pattern),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
