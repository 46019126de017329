import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { percentile } from './process-stats.js';

/** What one request to the receiver was, as the scenario reads it. */
export interface Receipt {
  /** The kind of delivery: its latencies are kept apart. */
  kind: string;
  /** When its clock starts (epoch ms): the event's createdAt, or when the message was due. */
  from: number;
  /** What it is the delivery of: a second receipt with the same key is a duplicate. */
  key: string;
  /** How many websites' failures it tells of (a grouped message lists several); 1 by default. */
  covers?: number;
}

/** Reads a request (its path and body as text); null: not one the scenario knows. */
export type Classify = (request: { path: string; body: string }) => Receipt | null;

/** A kind of delivery in the report, and how many of it the scenario expects (null: not known in advance). */
export interface ExpectedKind {
  kind: string;
  expected: number | null;
}

/** What the notifier benchmark runs: what it stores, the events it writes, what it expects back. */
export interface DeliveryScenario {
  label: string;
  /** The notifier's environment besides the databases'. */
  env: Record<string, string>;
  /** Stores what the notifier reads, before it starts (its start-up builds its indexes over it). */
  seed(receiverUrl: string): Promise<void>;
  /** Writes the events as the worker does; how many, over how long. */
  write(): Promise<{ events: number; seconds: number }>;
  classify: Classify;
  /** The kinds of delivery, in the order they are printed. */
  kinds(): ExpectedKind[];
  /** Whether every delivery expected has arrived. */
  complete(receipts: DeliveryReceipts): boolean;
  /** Lines the report adds. */
  notes?(receipts: DeliveryReceipts): string[];
  /** Lines about what went missing, read from the databases before they go. */
  diagnose?(): Promise<string[]>;
}

export interface KindFigures {
  kind: string;
  count: number;
  covers: number;
  duplicates: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Deliveries due within one window of the run, and how they fared. */
export interface WindowFigures {
  /** The window's start, seconds after the first delivery was due. */
  fromSecond: number;
  /** Deliveries due within the window (their clock started in it). */
  due: number;
  /** Deliveries that arrived within the window, whenever they were due. */
  arrived: number;
  /** Latency (ms) of those due within it. */
  p50: number;
  p99: number;
}

const sortedOf = (values: readonly number[]) => Float64Array.from(values).sort();

/**
 * A local receiver every delivery of a benchmark goes to (webhooks, an SMS provider's API): each
 * request is classified by the scenario and its latency (arrival − `from`) kept by kind.
 */
export class DeliveryReceipts {
  private readonly server: Server;
  private readonly latencies = new Map<string, number[]>();
  private readonly covered = new Map<string, number>();
  private readonly keys = new Map<string, Set<string>>();
  private readonly duplicated = new Map<string, number>();
  /** Each distinct delivery's due time and arrival (epoch ms). */
  private readonly timings: Array<{ from: number; at: number }> = [];
  unclassified = 0;
  total = 0;
  firstAt = 0;
  lastAt = 0;

  constructor(classify: Classify) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const now = Date.now();
        let receipt: Receipt | null = null;
        try {
          receipt = classify({ path: req.url ?? '/', body: Buffer.concat(chunks).toString('utf8') });
        } catch {
          // Not a body the scenario reads (counted as not recognised).
        }
        this.record(receipt, now);
        // Twilio answers a created message with 201 and its resource; webhooks take any 2xx.
        res.writeHead(req.url?.endsWith('.json') ? 201 : 200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
  }

  private record(receipt: Receipt | null, now: number): void {
    this.total += 1;
    this.firstAt ||= now;
    this.lastAt = now;
    if (!receipt) {
      this.unclassified += 1;
      return;
    }
    const { kind } = receipt;
    const seen = this.keys.get(kind) ?? new Set<string>();
    this.keys.set(kind, seen);
    if (seen.has(receipt.key)) {
      this.duplicated.set(kind, (this.duplicated.get(kind) ?? 0) + 1);
      return;
    }
    seen.add(receipt.key);
    const latencies = this.latencies.get(kind) ?? [];
    this.latencies.set(kind, latencies);
    latencies.push(now - receipt.from);
    this.timings.push({ from: receipt.from, at: now });
    this.covered.set(kind, (this.covered.get(kind) ?? 0) + (receipt.covers ?? 1));
  }

  /** Listens on 127.0.0.1; its base URL. */
  async start(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await new Promise((resolve) => this.server.once('listening', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Distinct deliveries of a kind received so far. */
  count(kind: string): number {
    return this.latencies.get(kind)?.length ?? 0;
  }

  /** Websites a kind's deliveries told of so far. */
  covers(kind: string): number {
    return this.covered.get(kind) ?? 0;
  }

  duplicates(): number {
    return [...this.duplicated.values()].reduce((sum, n) => sum + n, 0);
  }

  /** Each kind's count and latency percentiles (ms), in the order given (kinds not received are left out). */
  figures(kinds: readonly string[]): KindFigures[] {
    return kinds.flatMap((kind) => {
      const latencies = this.latencies.get(kind);
      if (!latencies) return [];
      const sorted = sortedOf(latencies);
      return [
        {
          kind,
          count: latencies.length,
          covers: this.covers(kind),
          duplicates: this.duplicated.get(kind) ?? 0,
          p50: percentile(sorted, 50),
          p95: percentile(sorted, 95),
          p99: percentile(sorted, 99),
          max: sorted[sorted.length - 1] ?? Number.NaN,
        },
      ];
    });
  }

  /** Every distinct delivery's latency, all kinds together, ascending (ms). */
  allLatencies(): Float64Array {
    return sortedOf([...this.latencies.values()].flat());
  }

  /**
   * The run in windows of `windowMs` from the first due time: what fell due and what arrived in
   * each, so a backlog shows as arrivals lagging behind what fell due, window after window.
   */
  windows(windowMs: number): WindowFigures[] {
    if (this.timings.length === 0) return [];
    let origin = Number.POSITIVE_INFINITY;
    let last = 0;
    for (const { from, at } of this.timings) {
      origin = Math.min(origin, from);
      last = Math.max(last, from, at);
    }
    const rows = Array.from({ length: Math.floor((last - origin) / windowMs) + 1 }, (_, i) => ({
      fromSecond: (i * windowMs) / 1000,
      latencies: [] as number[],
      arrived: 0,
    }));
    for (const { from, at } of this.timings) {
      rows[Math.floor((from - origin) / windowMs)]?.latencies.push(at - from);
      const arrivedIn = rows[Math.floor((at - origin) / windowMs)];
      if (arrivedIn) arrivedIn.arrived += 1;
    }
    return rows.map(({ fromSecond, latencies, arrived }) => {
      const sorted = sortedOf(latencies);
      return {
        fromSecond,
        due: sorted.length,
        arrived,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
      };
    });
  }

  close(): void {
    this.server.close();
  }
}
