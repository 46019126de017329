import type { Dispatcher, Pool } from 'undici';

export interface LoadRequest {
  method: Dispatcher.HttpMethod;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * `connections` clients, each sending `next()` as soon as its last request is answered, for
 * `durationMs`: every latency (sorted) and how many answers had a status not in `expected`.
 */
export async function loadFor(options: {
  pool: Pool;
  connections: number;
  durationMs: number;
  next: () => LoadRequest;
  expected: readonly number[];
}): Promise<{ latencies: Float64Array; errors: number }> {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = Date.now() + options.durationMs;
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (Date.now() < deadline) {
        const started = performance.now();
        const response = await options.pool.request(options.next());
        await response.body.dump();
        latencies.push(performance.now() - started);
        if (!options.expected.includes(response.statusCode)) errors++;
      }
    }),
  );
  return { latencies: Float64Array.from(latencies).sort(), errors };
}
