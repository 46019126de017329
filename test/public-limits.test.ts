import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from './support/harness.js';

describe('the public budget behind a trusted proxy', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.start({ TRUST_PROXY: 'true', PUBLIC_PAGES_PER_MINUTE: '3' });
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('counts the address the proxy appended, whatever the client put before it', async () => {
    const badge = () => `/badge/${randomUUID()}/status.svg`;
    // The proxy appends the connecting address; the client writes a new left-most one each time.
    const from = (address: string, spoofed: number) => ({
      'x-forwarded-for': `192.0.2.${spoofed}, ${address}`,
    });
    const statuses: number[] = [];
    for (let n = 0; n < 4; n++)
      statuses.push((await api.request('GET', badge(), { headers: from('198.51.100.66', n) })).status);
    expect(statuses).toEqual([404, 404, 404, 429]);
    const refused = await api.request<{ type: string }>('GET', badge(), {
      headers: from('198.51.100.66', 9),
    });
    const type = await api.request<{ description: string }>('GET', refused.body.type);
    expect(type.body.description).toMatch(/per token .* per client address on public pages/);
    expect((await api.request('GET', badge(), { headers: from('203.0.113.7', 0) })).status).toBe(404);
  });
});
