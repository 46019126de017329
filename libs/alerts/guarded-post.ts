import { type LookupAddress, lookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import { blockedReason } from '../probe/index.js';
import type { OutgoingRequest } from './connectors.js';

export interface GuardOptions {
  allowPrivateTargets: boolean;
  /** Single private addresses that may be reached with the guard on. */
  exemptAddresses: readonly string[];
}

/** Why a destination may not be reached, or undefined. */
function refusal(address: string, guard: GuardOptions): string | undefined {
  if (guard.allowPrivateTargets || guard.exemptAddresses.includes(address)) return undefined;
  return blockedReason(address);
}

/** The destination is in a range deliveries may not reach (SSRF guard). */
export class BlockedDestinationError extends Error {}

/**
 * A DNS lookup that drops addresses the guard refuses; the socket connects to an address it
 * returned, so the name cannot be re-resolved to another one (DNS rebinding).
 */
function guardedLookup(guard: GuardOptions): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { all: true, family: options.family }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const allowed = addresses.filter((a) => !refusal(a.address, guard));
      const first = allowed[0];
      if (!first) {
        const reason = addresses[0] ? refusal(addresses[0].address, guard) : 'no address';
        return callback(
          new BlockedDestinationError(
            `${hostname} resolves to ${addresses[0]?.address} (${reason}), which deliveries may not reach`,
          ),
          '',
          0,
        );
      }
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      else callback(null, first.address, first.family);
    });
  };
}

export interface PostOutcome {
  status: number;
  /** The start of the answer, for the delivery log. */
  responseExcerpt: string;
  durationMs: number;
}

const EXCERPT_BYTES = 2048;

/**
 * POSTs outside the private network (unless allowed), without following redirects, within
 * `timeoutMs` overall. Connection errors and the guard's refusals are thrown.
 */
export class GuardedPoster {
  private readonly agent: Agent;

  constructor(
    private readonly guard: GuardOptions,
    private readonly timeoutMs: number,
  ) {
    this.agent = new Agent({
      connect: { lookup: guardedLookup(guard), timeout: timeoutMs },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      // A connection per delivery: receivers are many and each is called rarely.
      pipelining: 0,
    });
  }

  async post(outgoing: OutgoingRequest, extraHeaders: Record<string, string> = {}): Promise<PostOutcome> {
    const url = new URL(outgoing.url);
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    // A literal address is connected to without a lookup, so the guard looks at it here.
    const reason = isIP(literal) ? refusal(literal, this.guard) : undefined;
    if (reason) throw new BlockedDestinationError(`${literal} is ${reason}, which deliveries may not reach`);
    const started = performance.now();
    const response = await request(url, {
      method: 'POST',
      headers: { ...outgoing.headers, ...extraHeaders },
      body: outgoing.body,
      dispatcher: this.agent,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    let excerpt = Buffer.alloc(0);
    for await (const chunk of response.body) {
      if (excerpt.length < EXCERPT_BYTES) excerpt = Buffer.concat([excerpt, chunk as Buffer]);
    }
    return {
      status: response.statusCode,
      responseExcerpt: excerpt.subarray(0, EXCERPT_BYTES).toString('utf8'),
      durationMs: Math.round(performance.now() - started),
    };
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
