import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeSecretsKey } from '../config/index.js';
import { startFerretDb } from './ferretdb.js';
import { isPortOpen } from './ports.js';
import { startRedisServer } from './redis-server.js';
import type { EmbeddedServer } from './server-process.js';

const DEFAULT_MONGO_PORT = 27017;
const DEFAULT_REDIS_PORT = 6379;
export const DEFAULT_DATABASE = 'webmon';

export interface LocalStack {
  mongoUrl: string;
  redisUrl: string;
  /** Base64 AES key for SECRETS_KEY. */
  secretsKey: string;
  /** The servers this call started (and the caller must stop), in start order. */
  started: EmbeddedServer[];
}

type Say = (message: string) => void;

async function useOrStart(
  what: string,
  configuredUrl: string | undefined,
  port: number,
  url: string,
  start: () => Promise<EmbeddedServer>,
  started: EmbeddedServer[],
  say: Say,
): Promise<string> {
  if (configuredUrl) {
    say(`${what}: using the configured URL`);
    return configuredUrl;
  }
  if (await isPortOpen('127.0.0.1', port)) {
    say(`${what}: using the server already listening on 127.0.0.1:${port}`);
    return url;
  }
  say(`${what}: starting it on 127.0.0.1:${port}…`);
  const server = await start();
  started.push(server);
  say(`${what}: started (pid ${server.pid})`);
  return url;
}

function portFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`${name}: must be a port number (1-65535)`);
  return port;
}

/** The key `npm start` keeps in `dataDir` when SECRETS_KEY is not set, if it made one. */
export function readStoredSecretsKey(dataDir: string): string | undefined {
  const file = join(dataDir, 'secrets.key');
  if (!existsSync(file)) return undefined;
  const stored = readFileSync(file, 'utf8').trim();
  if (!decodeSecretsKey(stored))
    throw new Error(`${file} does not hold a 32-byte key; restore it from a backup`);
  return stored;
}

function loadOrCreateSecretsKey(dataDir: string, configured: string | undefined, say: Say): string {
  if (configured) return configured;
  const stored = readStoredSecretsKey(dataDir);
  if (stored) return stored;
  const file = join(dataDir, 'secrets.key');
  const key = randomBytes(32).toString('base64');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  say(
    `WARNING: SECRETS_KEY is not set; created one in ${file}. Back it up: stored secrets cannot be read without it.`,
  );
  return key;
}

/**
 * The embedded single-machine setup: MongoDB and Redis at their local ports (27017 and 6379, or
 * EMBEDDED_MONGODB_PORT / EMBEDDED_REDIS_PORT), started
 * under `dataDir` when nothing listens there yet (so a second terminal, or the admin CLI, finds the
 * same servers), and a secrets key kept in `dataDir` when none is configured.
 */
export async function prepareLocalStack(options: {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  say: Say;
}): Promise<LocalStack> {
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const started: EmbeddedServer[] = [];
  const mongoPort = portFrom(options.env, 'EMBEDDED_MONGODB_PORT', DEFAULT_MONGO_PORT);
  const redisPort = portFrom(options.env, 'EMBEDDED_REDIS_PORT', DEFAULT_REDIS_PORT);
  try {
    const mongoUrl = await useOrStart(
      'MongoDB',
      options.env.MONGODB_URL,
      mongoPort,
      `mongodb://127.0.0.1:${mongoPort}/${DEFAULT_DATABASE}`,
      () =>
        startFerretDb({
          port: mongoPort,
          dataDir: join(options.dataDir, 'ferretdb'),
          database: DEFAULT_DATABASE,
          say: (message) => options.say(`MongoDB: ${message}`),
        }),
      started,
      options.say,
    );
    const redisUrl = await useOrStart(
      'Redis',
      options.env.REDIS_URL,
      redisPort,
      `redis://127.0.0.1:${redisPort}`,
      () => startRedisServer({ port: redisPort, dataDir: join(options.dataDir, 'redis') }),
      started,
      options.say,
    );
    const secretsKey = loadOrCreateSecretsKey(options.dataDir, options.env.SECRETS_KEY, options.say);
    return { mongoUrl, redisUrl, secretsKey, started };
  } catch (error) {
    await Promise.all(started.map((server) => server.stop()));
    throw error;
  }
}
