import type { Dispatcher, Pool } from 'undici';

export interface LoadRequest {
  method: Dispatcher.HttpMethod;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * `connections` clients, each sending `next()` as soon as its last request is answered, for
 * `durationMs`: every latency (sorted), how many answers had a status not in `expected`, and
 * which statuses those were (a count each: a benchmark says what went wrong, not only that).
 */
export async function loadFor(options: {
  pool: Pool;
  connections: number;
  durationMs: number;
  next: () => LoadRequest;
  expected: readonly number[];
}): Promise<{ latencies: Float64Array; errors: number; errorStatuses: Map<number, number> }> {
  const latencies: number[] = [];
  let errors = 0;
  const errorStatuses = new Map<number, number>();
  const deadline = Date.now() + options.durationMs;
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (Date.now() < deadline) {
        const started = performance.now();
        const response = await options.pool.request(options.next());
        await response.body.dump();
        latencies.push(performance.now() - started);
        if (!options.expected.includes(response.statusCode)) {
          errors++;
          errorStatuses.set(response.statusCode, (errorStatuses.get(response.statusCode) ?? 0) + 1);
        }
      }
    }),
  );
  return { latencies: Float64Array.from(latencies).sort(), errors, errorStatuses };
}
