import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { inject } from 'vitest';
import { type ApiServer, startApi } from '../../apps/api/api.js';
import { type ApiServices, composeApi } from '../../apps/api/compose.js';
import { ApiTokenRepository, OrganizationRepository } from '../../libs/auth/index.js';
import { type AppConfig, loadConfig } from '../../libs/config/index.js';
import type { Scope } from '../../libs/contract/index.js';
import { createLogger } from '../../libs/logging/index.js';
import { MonitoringNodeRepository, startHeartbeat } from '../../libs/nodes/index.js';
import { channelListRevisions } from '../../libs/notifications/index.js';
import { CheckScheduler } from '../../libs/scheduler/index.js';

/** A URL of the shared test MongoDB pointing at a database of its own. */
export function uniqueMongoUrl(base = inject('mongoUrl')): string {
  const url = new URL(base);
  url.pathname = `/t_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  return url.toString();
}

export function testConfig(env: Record<string, string> = {}): AppConfig {
  return loadConfig({
    MONGODB_URL: uniqueMongoUrl(),
    REDIS_URL: inject('redisUrl'),
    REDIS_KEY_PREFIX: `t${randomUUID().slice(0, 8)}`,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
    // Built in the test's process, where tests count a build's reads; test/status-page-cache.test.ts
    // runs APIs with the thread.
    STATUS_PAGE_BUILD_THREAD: 'false',
    ...env,
  });
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as is, instead of JSON-encoding `body`. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

export interface TestResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** A running API on a database and key prefix of its own, with helpers to call it. */
export class TestApi {
  private constructor(
    readonly api: ApiServer,
    readonly config: AppConfig,
    readonly mongo: MongoClient,
  ) {}

  /** `logs`: where the API's log lines go (a test reading them), else as LOG_LEVEL says. */
  static async start(env: Record<string, string> = {}, logs?: Writable): Promise<TestApi> {
    const config = testConfig(env);
    const api = await startApi(config, createLogger('api', config.LOG_LEVEL, logs));
    const mongo = new MongoClient(config.MONGODB_URL);
    await mongo.connect();
    return new TestApi(api, config, mongo);
  }

  get db() {
    return this.mongo.db();
  }

  async request<T = Record<string, unknown>>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | Buffer | undefined = options.rawBody;
    if (body === undefined && options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${this.api.url}${path}`, {
      method,
      headers,
      // DOM's fetch types (Preact's JSX brings them) take bytes over an ArrayBuffer of their own.
      body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body),
    });
    // A stream (server-sent events) does not end by itself: its status and headers are the answer.
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      await response.body?.cancel();
      return { status: response.status, headers: response.headers, body: '' as T };
    }
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    const parsed = type.includes('json') && text !== '' ? JSON.parse(text) : text;
    return { status: response.status, headers: response.headers, body: parsed as T };
  }

  /** A new organization and a token of it with the given scopes. */
  async createOrganization(scopes: Scope[] = ['admin']): Promise<{ organizationId: number; token: string }> {
    const organization = await new OrganizationRepository(this.db).create(`org ${randomUUID().slice(0, 6)}`);
    const token = await this.createToken(organization.id, scopes);
    return { organizationId: organization.id, token };
  }

  async createToken(organizationId: number, scopes: Scope[]): Promise<string> {
    const { token } = await new ApiTokenRepository(this.db).create({ organizationId, name: 'test', scopes });
    return token;
  }

  private readonly nodes: Array<{ stop(): Promise<void> }> = [];

  /**
   * A monitoring node of `region` that heartbeats like a worker's but runs no checks: its region
   * serves, so websites get schedules there (tests of scheduling without a worker).
   */
  async serveRegion(region = 'local'): Promise<{ stop(): Promise<void> }> {
    const node = await startHeartbeat({
      nodes: new MonitoringNodeRepository(this.db),
      node: {
        nodeId: `test-${region}-${randomUUID().slice(0, 8)}`,
        ip: '203.0.113.50',
        region,
        version: 'test',
      },
      logger: createLogger('test-node', 'silent'),
      intervalMs: 5_000,
    });
    this.nodes.push(node);
    return node;
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((node) => node.stop().catch(() => undefined)));
    await this.api.stop();
    await this.mongo
      .db()
      .dropDatabase()
      .catch(() => undefined);
    await this.mongo.close();
  }
}

/** A package (created over the API with the given admin token) with everything allowed unless overridden. */
export async function createPackage(
  api: TestApi,
  token: string,
  overrides: Record<string, unknown> = {},
): Promise<{ id: number; key: string }> {
  const key = `pkg-${randomUUID().slice(0, 8)}`;
  const res = await api.request<{ id: number; key: string }>('POST', '/api/packages', {
    token,
    body: { key, displayName: `Package ${key}`, ...overrides },
  });
  if (res.status !== 201) throw new Error(`package not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function createCustomer(
  api: TestApi,
  token: string,
  packageId: number,
  name = 'Customer',
): Promise<number> {
  const res = await api.request<{ id: number }>('POST', '/api/customers', {
    token,
    body: { name, packageId, email: 'ops@example.com' },
  });
  if (res.status !== 201) throw new Error(`customer not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** The interval (ms) a website is scheduled at in a region's check queue (its bucket running), or undefined. */
export async function scheduledInterval(
  api: TestApi,
  websiteId: number,
  region = 'local',
): Promise<number | undefined> {
  const redis = new Redis(api.config.REDIS_URL);
  const scheduler = new CheckScheduler(redis, api.config.REDIS_KEY_PREFIX);
  try {
    return await scheduler.intervalOf(websiteId, region);
  } finally {
    await scheduler.close();
    redis.disconnect();
  }
}

/**
 * Runs `work` with the services an API process builds, on the test API's MongoDB and a fail-fast
 * Redis connection of their own; both are closed after.
 */
export async function withServices<T>(
  api: TestApi,
  work: (services: ApiServices, redis: Redis) => Promise<T>,
): Promise<T> {
  const redis = new Redis(api.config.REDIS_URL, { maxRetriesPerRequest: 1 });
  const services = composeApi({
    db: api.db,
    redis,
    config: api.config,
    logger: createLogger('test', 'silent'),
  });
  try {
    return await work(services, redis);
  } finally {
    await services.close();
    redis.disconnect();
  }
}

/** Waits for `condition` to hold, checking every 200 ms (for hooks, where expect.poll cannot run). */
export async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`the condition did not hold within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * After a test wrote an organization's channels straight to the database (as data an older version
 * left, or time passing): its channel list's revision moves, so notifiers keeping lists read it again.
 */
export async function channelsWrittenStraight(api: TestApi, organizationId: number): Promise<void> {
  const redis = new Redis(api.config.REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    await channelListRevisions(redis, api.config.REDIS_KEY_PREFIX).bump(organizationId);
  } finally {
    redis.disconnect();
  }
}
