import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import { refusalUnder, type TargetGuard } from '../targets/index.js';

/** The destination is in a range deliveries may not reach (SSRF guard). */
export class BlockedDestinationError extends Error {}

/** The addresses of `hostname` the guard lets deliveries reach on `port` (an address is judged as it is). */
export async function allowedAddresses(
  hostname: string,
  guard: TargetGuard,
  port: number,
): Promise<LookupAddress[]> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  const addresses = family ? [{ address: bare, family }] : await lookup(bare, { all: true });
  const allowed = addresses.filter((a) => !refusalUnder(guard, a.address, port));
  if (allowed.length > 0) return allowed;
  const first = addresses[0];
  if (!first) throw new BlockedDestinationError(`${bare} has no address`);
  const where = family ? `${bare} is` : `${bare} resolves to ${first.address},`;
  throw new BlockedDestinationError(
    `${where} ${refusalUnder(guard, first.address, port)}, which deliveries may not reach`,
  );
}

/**
 * A DNS lookup that drops addresses the guard refuses; the socket connects to an address it
 * returned, so the name cannot be re-resolved to another one (DNS rebinding).
 */
function guardedLookup(guard: TargetGuard, port: number): LookupFunction {
  return (hostname, options, callback) => {
    allowedAddresses(hostname, guard, port).then(
      (allowed) => {
        const wanted = options.family ? allowed.filter((a) => a.family === options.family) : allowed;
        const first = wanted[0] ?? allowed[0];
        if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, wanted);
        else callback(null, first?.address ?? '', first?.family ?? 4);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

export interface HttpAnswer {
  status: number;
  /** The answer's body, up to the bytes asked for. */
  body: string;
  durationMs: number;
}

export interface HttpCall {
  /** PUT and PATCH: APIs that update with them (Matrix, Zendesk, GitHub). */
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** Bytes of an answer kept by default (the delivery log shows them). */
export const EXCERPT_BYTES = 2048;

/**
 * HTTP for deliveries: outside the private network (unless allowed), no redirects followed,
 * within `timeoutMs` overall. Connection errors and the guard's refusals are thrown.
 */
export class GuardedHttp {
  /** One per port: a lookup is not told the port, and an exemption may hold for one port only. */
  private readonly agents = new Map<number, Agent>();

  constructor(
    readonly guard: TargetGuard,
    readonly timeoutMs: number,
    private readonly userAgent: string,
  ) {}

  private agentFor(port: number): Agent {
    let agent = this.agents.get(port);
    if (!agent) {
      agent = new Agent({
        connect: { lookup: guardedLookup(this.guard, port), timeout: this.timeoutMs },
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      this.agents.set(port, agent);
    }
    return agent;
  }

  async send(call: HttpCall, maxBytes = EXCERPT_BYTES): Promise<HttpAnswer> {
    const url = new URL(call.url);
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    // A literal address is connected to without a lookup, so the guard looks at it here.
    if (isIP(literal)) await allowedAddresses(literal, this.guard, port);
    const started = performance.now();
    const response = await request(url, {
      method: call.method,
      headers: { 'user-agent': this.userAgent, ...call.headers },
      body: call.body,
      dispatcher: this.agentFor(port),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    let body = Buffer.alloc(0);
    for await (const chunk of response.body) {
      if (body.length < maxBytes) body = Buffer.concat([body, chunk as Buffer]);
    }
    return {
      status: response.statusCode,
      body: body.subarray(0, maxBytes).toString('utf8'),
      durationMs: Math.round(performance.now() - started),
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.agents.values()].map((agent) => agent.close()));
  }
}
