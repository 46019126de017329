import { spawn } from 'node:child_process';
import { isIPv6 } from 'node:net';
import type { ProbeError } from '../checks/index.js';
import { errorMessage } from '../errors/index.js';
import { type ConnectorOptions, newHopConnection, resolveGuarded, untilAborted } from './pinned-connector.js';
import { ProbeFailure } from './probe-error.js';

export interface IcmpProbeRequest {
  host: string;
  /** Echo requests sent (1 to 10). */
  count: number;
  /** Between two requests, at least 200 ms (what iputils allows everyone). */
  intervalMs: number;
  /** Bounds the whole probe; a reply later than it is lost. */
  timeoutMs: number;
}

export interface IcmpObservation {
  startedAt: Date;
  address: string | null;
  timings: { dnsMs: number; totalMs: number };
  sent: number;
  received: number;
  /** Each reply's round trip in ms, in order of arrival. */
  rttsMs: number[];
  /** DNS, BLOCKED_TARGET or TIMEOUT (of the lookup), in words; lost replies are not an error here. */
  error: ProbeError | null;
}

export type IcmpProbeOptions = Pick<
  ConnectorOptions,
  'allowPrivateTargets' | 'exemptAddresses' | 'resolve'
> & {
  /** The ping program (iputils' `ping`, which uses unprivileged ICMP sockets where the kernel allows them). */
  pingCommand?: string;
};

/** The ping program is interrupted this long before the deadline, to print what it saw. */
const INTERRUPT_BEFORE_MS = 300;

/**
 * This host cannot probe at all (no ping program, not allowed to run it): a fault of the worker,
 * not of the host checked, so no result is made of it (the check is tried again later).
 */
export class ProbeUnavailableError extends Error {
  override name = 'ProbeUnavailableError';
}

/** What the ping program prints is read up to this much (count ≤ 10: a few hundred bytes). */
const OUTPUT_MAX_BYTES = 16 * 1024;
const roundMs = (ms: number) => Math.round(ms * 100) / 100;

/** The replies and the summary iputils' ping prints: `… icmp_seq=1 ttl=64 time=0.05 ms`, `3 packets transmitted, 2 received`. */
export function parsePingOutput(output: string): {
  sent: number | null;
  received: number | null;
  rttsMs: number[];
} {
  const rttsMs = [...output.matchAll(/icmp_seq=\d+ .*?time[=<]([\d.]+) ?ms/g)].map((m) => Number(m[1]));
  const summary = /(\d+) packets transmitted, (\d+) (?:packets )?received/.exec(output);
  return {
    sent: summary ? Number(summary[1]) : null,
    received: summary ? Number(summary[2]) : null,
    rttsMs: rttsMs.filter((ms) => Number.isFinite(ms)),
  };
}

/**
 * ICMP echo requests to a guarded address through the system's `ping` (Node has no ICMP socket):
 * the host resolved and judged by the SSRF guard, then the address itself pinged (no second
 * lookup), numeric output parsed. Loss and round trips are observed, not judged (the verdict does).
 */
export async function probeIcmp(
  request: IcmpProbeRequest,
  options: IcmpProbeOptions,
): Promise<IcmpObservation> {
  const startedAt = new Date();
  const started = performance.now();
  const hop = newHopConnection();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new ProbeFailure('TIMEOUT', '')), request.timeoutMs);
  const finish = (seen: Omit<IcmpObservation, 'startedAt' | 'address' | 'timings'>): IcmpObservation => ({
    startedAt,
    address: hop.address,
    timings: { dnsMs: roundMs(hop.dnsMs), totalMs: roundMs(performance.now() - started) },
    ...seen,
  });
  try {
    const address = await untilAborted(
      resolveGuarded(options, hop, request.host, undefined, abort.signal),
      abort.signal,
    );
    const remainingMs = Math.max(1000, request.timeoutMs - (performance.now() - started));
    const args = [
      '-n',
      ...(isIPv6(address) ? ['-6'] : ['-4']),
      '-c',
      String(request.count),
      '-i',
      (Math.max(200, request.intervalMs) / 1000).toFixed(3),
      // How long to wait for each reply (with -w, ping would keep sending past the count while
      // replies are missing); the whole run is bounded by the probe's deadline, which kills it.
      '-W',
      String(
        Math.max(1, Math.floor((remainingMs - request.count * Math.max(200, request.intervalMs)) / 1000)),
      ),
      address,
    ];
    const output = await new Promise<{ text: string; code: number | null }>((resolve, reject) => {
      // No abort signal: near the deadline ping is interrupted (SIGINT), which makes it print what
      // it saw so far, so the replies that came are counted; it is killed only if it lingers.
      const child = spawn(options.pingCommand ?? 'ping', args, {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
      });
      const interrupt = setTimeout(
        () => child.kill('SIGINT'),
        Math.max(100, request.timeoutMs - (performance.now() - started) - INTERRUPT_BEFORE_MS),
      );
      const kill = setTimeout(() => child.kill('SIGKILL'), request.timeoutMs - (performance.now() - started));
      let text = '';
      const take = (chunk: Buffer) => {
        if (text.length < OUTPUT_MAX_BYTES) text += chunk.toString('utf8');
      };
      child.stdout.on('data', take);
      child.stderr.on('data', take);
      child.once('error', (error) => {
        clearTimeout(interrupt);
        clearTimeout(kill);
        reject(error);
      });
      child.once('close', (code) => {
        clearTimeout(interrupt);
        clearTimeout(kill);
        resolve({ text, code });
      });
    });
    const parsed = parsePingOutput(output.text);
    if (parsed.sent === null) {
      // Killed at the deadline before it could say anything: every request counts as unanswered.
      if (abort.signal.aborted) return finish({ sent: request.count, received: 0, rttsMs: [], error: null });
      const said = output.text.trim().split('\n')[0]?.slice(0, 200) ?? '';
      throw new ProbeUnavailableError(`ping could not run (exit ${output.code}): ${said || 'no output'}`);
    }
    return finish({ sent: parsed.sent, received: parsed.received ?? 0, rttsMs: parsed.rttsMs, error: null });
  } catch (error) {
    if (error instanceof ProbeUnavailableError) throw error;
    if (error instanceof ProbeFailure && error.code !== 'TIMEOUT')
      return finish({
        sent: 0,
        received: 0,
        rttsMs: [],
        error: { code: error.code, message: error.message },
      });
    if (abort.signal.aborted && !hop.address)
      return finish({
        sent: 0,
        received: 0,
        rttsMs: [],
        error: {
          code: 'TIMEOUT',
          message: `DNS did not answer for ${request.host} within ${request.timeoutMs} ms`,
        },
      });
    // The worker cannot ping (no program, not allowed): not the host's failure, so no result.
    const code = (error as NodeJS.ErrnoException).code;
    throw new ProbeUnavailableError(
      code === 'ENOENT'
        ? 'the ping program is not installed on this host (Debian: apt-get install iputils-ping)'
        : `ping could not run: ${errorMessage(error)}`,
    );
  } finally {
    clearTimeout(timer);
  }
}
