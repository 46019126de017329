export interface GateLimits {
  /** Requests in flight to one host at most. */
  perHostConcurrency: number;
  /** Requests started per second to one host at most (spaced evenly: no bursts). */
  perHostPerSecond: number;
  /** Requests in flight in all at most. */
  concurrency: number;
}

interface Waiter {
  grant: (release: () => void) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal;
  onAbort: () => void;
}

interface HostLine {
  active: number;
  /** performance.now() before which no request to the host may start. */
  nextStartAt: number;
  /** Waiters by priority, lowest first; first come first within one. */
  waiting: Map<number, Waiter[]>;
  size: number;
}

/**
 * The crawl's politeness: every request waits here for a turn, within the limits per host and in
 * all. Within a host the lowest priority goes first (robots.txt, then pages by depth, then links);
 * hosts take turns. A waiter whose host is at its limit holds nothing, so one slow host does not
 * hold back the others.
 */
export class RequestGate {
  private readonly hosts = new Map<string, HostLine>();
  private active = 0;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Number.POSITIVE_INFINITY;
  private readonly intervalMs: number;

  constructor(private readonly limits: GateLimits) {
    this.intervalMs = 1000 / limits.perHostPerSecond;
  }

  /** Resolves with the turn's release (call it once the request is done), or rejects when `signal` aborts. */
  acquire(host: string, priority: number, signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((grant, reject) => {
      const line = this.lineOf(host);
      const waiter: Waiter = {
        grant,
        reject,
        signal,
        onAbort: () => {
          const queue = line.waiting.get(priority);
          const at = queue?.indexOf(waiter) ?? -1;
          if (queue && at >= 0) {
            queue.splice(at, 1);
            line.size--;
            if (queue.length === 0) line.waiting.delete(priority);
          }
          reject(signal.reason);
        },
      };
      signal.addEventListener('abort', waiter.onAbort, { once: true });
      const queue = line.waiting.get(priority);
      if (queue) queue.push(waiter);
      else line.waiting.set(priority, [waiter]);
      line.size++;
      this.pump();
    });
  }

  /** Stops the timer (the crawl is over). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Number.POSITIVE_INFINITY;
  }

  private lineOf(host: string): HostLine {
    let line = this.hosts.get(host);
    if (!line) {
      line = { active: 0, nextStartAt: 0, waiting: new Map(), size: 0 };
      this.hosts.set(host, line);
    }
    return line;
  }

  private next(line: HostLine): Waiter | undefined {
    const priority = Math.min(...line.waiting.keys());
    const queue = line.waiting.get(priority);
    const waiter = queue?.shift();
    if (queue?.length === 0) line.waiting.delete(priority);
    if (waiter) line.size--;
    return waiter;
  }

  private pump(): void {
    const now = performance.now();
    let wakeAt = Number.POSITIVE_INFINITY;
    for (const [host, line] of [...this.hosts]) {
      if (this.active >= this.limits.concurrency) break;
      if (line.size === 0) {
        if (line.active === 0 && line.nextStartAt <= now) this.hosts.delete(host);
        continue;
      }
      if (line.active >= this.limits.perHostConcurrency) continue;
      if (line.nextStartAt > now) {
        wakeAt = Math.min(wakeAt, line.nextStartAt);
        continue;
      }
      const waiter = this.next(line);
      if (!waiter) continue;
      waiter.signal.removeEventListener('abort', waiter.onAbort);
      line.active++;
      this.active++;
      line.nextStartAt = now + this.intervalMs;
      let released = false;
      waiter.grant(() => {
        if (released) return;
        released = true;
        line.active--;
        this.active--;
        this.pump();
      });
      // Hosts take turns: this one goes to the back.
      this.hosts.delete(host);
      this.hosts.set(host, line);
      if (line.size > 0) wakeAt = Math.min(wakeAt, line.nextStartAt);
    }
    if (wakeAt < this.timerAt) {
      this.close();
      this.timerAt = wakeAt;
      this.timer = setTimeout(
        () => {
          this.timer = null;
          this.timerAt = Number.POSITIVE_INFINITY;
          this.pump();
        },
        Math.max(0, wakeAt - now),
      );
    }
  }
}
