import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { TestApi } from './harness.js';

/** A local target answering `/site/<n>` with 200 and noting when each site was requested. */
export interface SiteFarm {
  url: string;
  /** When site `n` was requested (epoch ms), in order. */
  hits: Map<number, number[]>;
  /** Sites answering 503 instead of 200. */
  failing: Set<number>;
  /** Creates `count` websites `/site/0` … checked every `checkInterval` s; returns their ids. */
  createSites(
    api: TestApi,
    token: string,
    customerId: number,
    count: number,
    checkInterval: number,
  ): Promise<number[]>;
  close(): void;
}

export async function startSiteFarm(): Promise<SiteFarm> {
  const hits = new Map<number, number[]>();
  const failing = new Set<number>();
  const server = createServer((req, res) => {
    const site = Number(req.url?.split('/')[2]);
    hits.set(site, [...(hits.get(site) ?? []), Date.now()]);
    res.statusCode = failing.has(site) ? 503 : 200;
    res.end(failing.has(site) ? 'down' : 'ok');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    hits,
    failing,
    async createSites(api, token, customerId, count, checkInterval) {
      const ids: number[] = [];
      for (let n = 0; n < count; n++) {
        const created = await api.request<{ id: number }>('POST', '/api/websites', {
          token,
          // The HTTPS redirect check is off by default: one request per check.
          body: { customerId, name: `Site ${n}`, url: `${url}/site/${n}`, checkInterval, timeoutSeconds: 5 },
        });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        ids.push(created.body.id);
      }
      return ids;
    },
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
