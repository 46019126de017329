import { type Db, MongoClient } from 'mongodb';
import type { Logger } from '../logging/index.js';
import { retryUntilReady } from '../runtime/index.js';

export interface Mongo {
  client: MongoClient;
  db: Db;
}

/** The database named in the URL's path, or `webmon`. */
export function databaseNameOf(url: string): string {
  const match = /^mongodb(?:\+srv)?:\/\/[^/]+\/([^?]+)/.exec(url);
  return match?.[1] ? decodeURIComponent(match[1]) : 'webmon';
}

/** The URL without its password, for logs and messages. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

/**
 * One client per process. Server selection fails after a few seconds so that requests answer 503
 * quickly while MongoDB is away; the driver reconnects by itself when it is back.
 */
export async function connectMongo(
  url: string,
  options: { appName: string; logger: Logger; signal?: AbortSignal },
): Promise<Mongo> {
  const client = new MongoClient(url, {
    appName: options.appName,
    serverSelectionTimeoutMS: 3000,
    connectTimeoutMS: 3000,
    maxPoolSize: 50,
  });
  await retryUntilReady(() => client.connect(), {
    what: `MongoDB at ${redactUrl(url)}`,
    logger: options.logger,
    signal: options.signal,
  });
  return { client, db: client.db(databaseNameOf(url)) };
}

/**
 * True when MongoDB answers a ping within `timeoutMs`. The driver's own deadline does not cover
 * every wait (a connection checkout from a pool whose connections all hang), so a timer bounds it.
 */
export async function pingMongo(mongo: Mongo, timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    const ping = mongo.db.command({ ping: 1 }, { timeoutMS: timeoutMs }).then(() => true as const);
    ping.catch(() => undefined);
    return await Promise.race([ping, deadline]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
