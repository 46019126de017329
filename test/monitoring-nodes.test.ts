import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../apps/worker/worker.js';
import { createLogger } from '../libs/logging/index.js';
import { TestApi } from './support/harness.js';

describe('monitoring nodes', () => {
  let api: TestApi;
  let token: string;
  beforeAll(async () => {
    api = await TestApi.start();
    ({ token } = await api.createOrganization(['read']));
  });
  afterAll(() => api.stop());

  it('a worker registers its node, which is listed while it heartbeats and dropped when it stops', async () => {
    const config = {
      ...api.config,
      NODE_ID: 'probe-eu-1',
      NODE_REGION: 'eu-west',
      NODE_PUBLIC_IP: '203.0.113.7',
    };
    const worker = await startWorker(config, createLogger('worker', 'silent'), { heartbeatIntervalMs: 200 });
    const second = await startWorker(
      { ...config, NODE_ID: 'probe-us-1', NODE_REGION: 'us-east', NODE_PUBLIC_IP: '198.51.100.20' },
      createLogger('worker', 'silent'),
    );

    const listed = await api.request<{ nodes: unknown[] }>('GET', '/api/v1/monitoring-nodes', { token });
    expect(listed.status).toBe(200);
    expect(listed.body.nodes).toEqual([
      { ip: '203.0.113.7', region: 'eu-west', active: true },
      { ip: '198.51.100.20', region: 'us-east', active: true },
    ]);

    const firewall = await api.request<{ generated: string; ips: string[] }>(
      'GET',
      '/api/v1/monitoring-nodes/firewall.json',
    );
    expect(firewall.status).toBe(200);
    expect(firewall.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(firewall.body).toEqual({
      generated: new Date().toISOString().slice(0, 10),
      ips: ['198.51.100.20', '203.0.113.7'],
    });
    const text = await api.request<string>('GET', '/api/v1/monitoring-nodes/firewall.json?format=text');
    expect(text.body).toBe('198.51.100.20\n203.0.113.7\n');
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    // Both representations are in the contract, each with its own schema.
    const document = await api.request<{
      paths: Record<
        string,
        { get: { responses: Record<string, { content: Record<string, { schema: unknown }> }> } }
      >;
    }>('GET', '/openapi.json');
    const content =
      document.body.paths['/api/v1/monitoring-nodes/firewall.json']?.get.responses['200']?.content;
    expect(Object.keys(content ?? {})).toEqual(['application/json', 'text/plain; charset=utf-8']);
    expect(content?.['text/plain; charset=utf-8']?.schema).toMatchObject({ type: 'string' });
    expect(JSON.stringify(content?.['application/json']?.schema)).not.toContain('anyOf');
    expect((await api.request('GET', '/api/v1/monitoring-nodes/firewall.json?format=xml')).status).toBe(400);

    await second.stop();
    const after = await api.request<{ nodes: Array<{ region: string }> }>('GET', '/api/v1/monitoring-nodes', {
      token,
    });
    expect(after.body.nodes.map((n) => n.region)).toEqual(['eu-west']);
    // Still allow-listed: a restart must not make customers' firewalls drop it.
    expect(
      (await api.request<{ ips: string[] }>('GET', '/api/v1/monitoring-nodes/firewall.json')).body.ips,
    ).toContain('198.51.100.20');
    await worker.stop();
  });

  it('needs a token for the node list but not for the firewall list', async () => {
    expect((await api.request('GET', '/api/v1/monitoring-nodes')).status).toBe(401);
    expect((await api.request('GET', '/api/v1/monitoring-nodes/firewall.json')).status).toBe(200);
  });
});
