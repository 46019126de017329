import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startWorker } from '../apps/worker/worker.js';
import { type EmbeddedServer, findFreePort, startRedisServer } from '../libs/embedded/index.js';
import { createLogger } from '../libs/logging/index.js';
import { TestApi } from './support/harness.js';

/** A Redis outage is told in one line when it starts and one when it ends, not per reconnect attempt. */
describe('logs of a dependency outage', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'webmon-outage-'));
  let port: number;
  let redis: EmbeddedServer;
  let api: TestApi;

  beforeAll(async () => {
    port = await findFreePort();
    redis = await startRedisServer({ port, dataDir });
    api = await TestApi.start({ REDIS_URL: redis.url });
  }, 60_000);
  afterAll(async () => {
    await api?.stop();
    await redis?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a 6 s Redis outage: a few structured lines with its duration, nothing raw', async () => {
    let text = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    const raw = vi.spyOn(console, 'error');
    const worker = await startWorker(
      { ...api.config, NODE_PUBLIC_IP: '203.0.113.60', NODE_ID: 'outage' },
      createLogger('worker', 'info', sink),
    );
    try {
      const before = text.split('\n').length;
      await redis.stop();
      await new Promise((resolve) => setTimeout(resolve, 6000));
      redis = await startRedisServer({ port, dataDir });
      await expect
        .poll(() => text.match(/Redis connection restored/g)?.length ?? 0, { timeout: 30_000 })
        .toBe(2);
      const lines = text
        .trim()
        .split('\n')
        .slice(before - 1);
      for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
      expect(lines.filter((line) => line.includes('Redis connection lost'))).toHaveLength(2);
      const restored = lines
        .filter((line) => line.includes('Redis connection restored'))
        .map((l) => JSON.parse(l));
      for (const line of restored) expect(line.outageMs).toBeGreaterThanOrEqual(5000);
      // Before: 24 lines per BullMQ worker and a raw 8-line dump per queue and reconnect attempt.
      expect(lines.length, lines.join('\n')).toBeLessThanOrEqual(10);
      expect(raw).not.toHaveBeenCalled();
    } finally {
      raw.mockRestore();
      await worker.stop();
    }
  }, 90_000);
});
