import { setTimeout as sleep } from 'node:timers/promises';
import { type ExportDocument, exportDocument } from '../exports/index.js';
import type { ConfigurationWriter, StepError } from './apply.js';
import type { Body } from './plan-steps.js';
import type { ResourceKind } from './resource-keys.js';

/** Each kind's collection in the public API. */
const COLLECTION: Record<ResourceKind, string> = {
  package: '/api/packages',
  customer: '/api/customers',
  channel: '/api/notification-channels',
  website: '/api/websites',
  maintenanceWindow: '/api/maintenance-windows',
  monitor: '/api/monitors',
  statusPage: '/api/status-pages',
};

/** The kinds of monitor made through a route of their own; the others through POST …/monitors with their kind. */
const MONITOR_ROUTES: Readonly<Record<string, string>> = {
  heartbeat: 'heartbeats',
  dns: 'dns-checks',
  port: 'port-checks',
};

/** Where a monitor is made, and what is sent there (its website in the path). */
function monitorCreate({ websiteId, kind, ...fields }: Body): [string, Body] {
  const route = MONITOR_ROUTES[String(kind)];
  const website = `/api/websites/${encodeURIComponent(String(websiteId))}`;
  return route ? [`${website}/${route}`, fields] : [`${website}/monitors`, { kind, ...fields }];
}

/** Tries of one request the API turned away for now (429 over the rate limit, 503 busy). */
const MAX_TRIES = 6;
const MAX_WAIT_SECONDS = 30;
/** A request the API has not answered in this long is given up (a batch of 1,000 websites takes ~2 s). */
const REQUEST_TIMEOUT_MS = 120_000;

/** The API's answer to a request that failed: its RFC 9457 problem. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: StepError['errors'],
  ) {
    super(message);
    this.name = 'ApiProblem';
  }
}

/**
 * An organization's configuration through the public API, with a token: read as one export,
 * written route by route (what `webmon plan|apply` uses; it never touches MongoDB).
 */
export class ApiConfiguration implements ConfigurationWriter {
  private readonly base: URL;

  constructor(
    baseUrl: string,
    private readonly token: string,
    private readonly fetchApi: typeof fetch = fetch,
  ) {
    // A trailing slash, so that paths resolve below it (https://host/webmon/ + api/… keeps /webmon).
    this.base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    if (!/^https?:$/.test(this.base.protocol)) throw new Error(`${baseUrl} is not an http(s) URL`);
  }

  /** Where this API serves the monitoring file's JSON Schema (for a file's `$schema`). */
  schemaUrl(): string {
    return new URL('monitoring.schema.json', this.base).toString();
  }

  private async request(method: string, path: string, body?: unknown): Promise<unknown> {
    const url = new URL(path.replace(/^\//, ''), this.base);
    for (let attempt = 1; ; attempt += 1) {
      const response = await this.fetchApi(url, {
        method,
        headers: {
          Authorization: `Bearer ${this.token}`,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      }).catch((error: unknown) => {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        const why =
          (error as Error).name === 'TimeoutError'
            ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`
            : (cause?.code ?? cause?.message ?? (error as Error).message);
        throw new Error(
          `${method} ${url.origin}${url.pathname}: ${why} (is WEBMON_URL right, and the API up?)`,
        );
      });
      const text = await response.text();
      const answer: unknown = text ? safeJson(text) : null;
      if (response.ok) return answer;
      const retryAfter = Number(response.headers.get('retry-after'));
      if ((response.status === 429 || response.status === 503) && attempt < MAX_TRIES) {
        await sleep(
          1000 *
            Math.min(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : attempt, MAX_WAIT_SECONDS),
        );
        continue;
      }
      const problem = (answer ?? {}) as { title?: string; detail?: string; errors?: StepError['errors'] };
      throw new ApiProblem(
        response.status,
        `${method} ${url.pathname}: ${response.status} ${problem.detail ?? problem.title ?? text.slice(0, 200)}`,
        Array.isArray(problem.errors) ? problem.errors : undefined,
      );
    }
  }

  /** Everything the organization has, as the export shows it (checked against the export's schema). */
  async read(): Promise<ExportDocument> {
    const answer = await this.request('GET', '/api/exports?format=webmon-json');
    const parsed = exportDocument.safeParse(answer);
    if (!parsed.success)
      throw new Error(
        `the API's export is not one this client reads (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}): are the API and this client the same version?`,
      );
    return parsed.data;
  }

  async create(kind: Exclude<ResourceKind, 'website'>, body: Body): Promise<number> {
    const [path, sent] = kind === 'monitor' ? monitorCreate(body) : [COLLECTION[kind], body];
    const created = (await this.request('POST', path, sent)) as { id?: unknown };
    if (typeof created?.id !== 'number') throw new Error(`POST ${path} answered without an id`);
    return created.id;
  }

  async createWebsites(items: readonly Body[]): Promise<Array<{ id: number } | { error: StepError }>> {
    const answer = (await this.request('POST', '/api/websites/batch', { items, partial: true })) as {
      items: Array<{ website: { id: number } | null; errors: StepError['errors'] }>;
    };
    return answer.items.map((item) =>
      item.website
        ? { id: item.website.id }
        : { error: { message: 'the website is invalid', errors: item.errors ?? [] } },
    );
  }

  async change(
    kind: ResourceKind,
    address: string,
    body: Body,
    checkConfig: Body | undefined,
  ): Promise<void> {
    const path = `${COLLECTION[kind]}/${encodeURIComponent(address)}`;
    if (Object.keys(body).length > 0) await this.request('PATCH', path, body);
    if (checkConfig) await this.request('PATCH', `${path}/check-config`, checkConfig);
  }

  async remove(kind: ResourceKind, address: string): Promise<void> {
    await this.request('DELETE', `${COLLECTION[kind]}/${encodeURIComponent(address)}`);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
