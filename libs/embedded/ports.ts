import { createServer, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** True when something accepts TCP connections at host:port within `timeoutMs`. */
export function isPortOpen(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.connect(port, host);
  });
}

/** Waits until host:port accepts connections, `isAlive` stays true and `timeoutMs` has not passed. */
export async function waitForPort(
  host: string,
  port: number,
  options: { timeoutMs: number; isAlive: () => boolean; what: string },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  while (Date.now() < deadline) {
    if (!options.isAlive()) throw new Error(`${options.what} exited before accepting connections`);
    if (await isPortOpen(host, port)) return;
    await sleep(100);
  }
  throw new Error(
    `${options.what} did not accept connections on ${host}:${port} within ${options.timeoutMs} ms`,
  );
}
