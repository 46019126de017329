import { once } from 'node:events';
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemResolve } from '../libs/probe/index.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';

/**
 * A check can outlast its interval (here the domain-expiry lookup: RDAP times out after 10 s, then
 * a slow WHOIS). The slot that comes due meanwhile must not probe the site a second time at once:
 * the website's due member is leased to the running check until it is put back.
 */
describe('a website whose check outlasts its interval', () => {
  let stack: MonitoringStack;
  let rdap: Server;
  let whois: TcpServer;
  let site: Server;
  const hits: number[] = [];
  /** When the WHOIS server answered the slow check's lookup: that check runs until then. */
  let lookupAnsweredAt: number | undefined;

  beforeAll(async () => {
    rdap = createServer(() => {}).listen(0, '127.0.0.1'); // never answers
    whois = createTcpServer((socket) => {
      socket.once('data', () =>
        setTimeout(() => {
          lookupAnsweredAt ??= Date.now();
          socket.end('No match\r\n');
        }, 8000),
      );
    }).listen(0, '127.0.0.1');
    site = createServer((_req, res) => {
      hits.push(Date.now());
      res.end('ok');
    }).listen(0, '127.0.0.1');
    await Promise.all([once(rdap, 'listening'), once(whois, 'listening'), once(site, 'listening')]);
    stack = await startMonitoringStack(
      'overlap-node',
      {
        probe: {
          resolve: (hostname) =>
            hostname === 'slow-registry.test' ? Promise.resolve(['127.0.0.1']) : systemResolve(hostname),
        },
      },
      {
        RDAP_BASE_URL: `http://127.0.0.1:${(rdap.address() as AddressInfo).port}`,
        WHOIS_SERVER: `127.0.0.1:${(whois.address() as AddressInfo).port}`,
      },
    );
  });
  afterAll(async () => {
    await stack?.stop();
    rdap.closeAllConnections();
    for (const server of [rdap, whois, site]) server.close();
  });

  /** The worker's counter `name`, summed over the series matching `labels`. */
  const counted = async (name: string, labels: Record<string, string> = {}) => {
    const series = (await stack.metrics.getSingleMetric(name)?.get())?.values ?? [];
    return series
      .filter((one) => Object.entries(labels).every(([key, value]) => one.labels[key] === value))
      .reduce((sum, one) => sum + one.value, 0);
  };

  it('is not probed again while its previous check still runs; the slot after it is', async () => {
    const { api, token, customerId } = stack;
    const created = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: {
        customerId,
        name: 'Slow registry',
        url: `http://slow-registry.test:${(site.address() as AddressInfo).port}/`,
        checkInterval: 10,
        timeoutSeconds: 5,
      },
    });
    expect(created.status).toBe(201);
    // The check made at once on creation (no domain lookup yet) is done before the change.
    await expect
      .poll(() => counted('webmon_checks_total'), { timeout: 15_000, interval: 50 })
      .toBeGreaterThan(0);
    const patchedAt = Date.now();
    const config = await api.request('PATCH', `/api/websites/${created.body.id}/check-config`, {
      token,
      body: { checkDomainExpiryEnabled: true },
    });
    expect(config.status).toBe(200);
    // The check made at once after the PATCH waits ~18 s for the lookup; one slot comes due meanwhile.
    const afterPatch = () => hits.filter((at) => at >= patchedAt);
    await expect.poll(() => afterPatch().length, { timeout: 15_000, interval: 50 }).toBeGreaterThan(0);
    const firstAt = afterPatch()[0] ?? 0;
    await expect.poll(() => lookupAnsweredAt, { timeout: 30_000 }).toBeDefined();
    // A slot came due meanwhile: the check holding the website's lease was not claimed again (not
    // even to be dropped as an overlap), so the site was not probed a second time.
    const slowCheckRan = (at: number) => at > firstAt && at <= (lookupAnsweredAt ?? 0);
    expect(hits.filter(slowCheckRan).map((at) => at - firstAt)).toEqual([]);
    expect(await counted('webmon_checks_dropped_total', { reason: 'overlap' })).toBe(0);
    // Checks go on once it is done (the lookup's failure is cached, so the next ones are quick).
    await expect.poll(() => hits.filter((at) => at > firstAt).length, { timeout: 30_000 }).toBeGreaterThan(0);
  }, 90_000);
});
