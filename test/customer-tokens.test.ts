import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, TestApi } from './support/harness.js';

type Token = { id: number; token: string; scopes: string[]; customerId: number | null };

/** A token an agency hands a client's own script: read-only, and only that customer's resources. */
describe('tokens bound to a customer', () => {
  let api: TestApi;
  let admin: string;
  let mine: number;
  let theirs: number;
  const websites: Record<'mine' | 'theirs', { id: number; publicId: string }> = {
    mine: { id: 0, publicId: '' },
    theirs: { id: 0, publicId: '' },
  };

  beforeAll(async () => {
    api = await TestApi.start();
    ({ token: admin } = await api.createOrganization(['admin']));
    const pkg = await createPackage(api, admin);
    mine = await createCustomer(api, admin, pkg.id, 'Mine');
    theirs = await createCustomer(api, admin, pkg.id, 'Theirs');
    for (const [key, customerId] of [
      ['mine', mine],
      ['theirs', theirs],
    ] as const) {
      const created = await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
        token: admin,
        body: { customerId, name: key, url: `https://${key}.example.com/`, paused: true },
      });
      expect(created.status).toBe(201);
      websites[key] = created.body;
    }
  });
  afterAll(async () => {
    await api?.stop();
  });

  const createToken = (body: Record<string, unknown>) =>
    api.request<Token>('POST', '/api/tokens', { token: admin, body: { name: 'Client script', ...body } });

  it('is read-only and of an existing customer of the organization, or refused naming the field', async () => {
    const wide = await createToken({ scopes: ['read', 'write'], customerId: mine });
    expect(wide.status).toBe(400);
    expect(JSON.stringify(wide.body)).toContain('scopes');
    const unknown = await createToken({ scopes: ['read'], customerId: 999_999 });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('customerId');
    const other = await api.createOrganization(['admin']);
    const foreign = await api.request('POST', '/api/tokens', {
      token: other.token,
      body: { name: 'x', scopes: ['read'], customerId: mine },
    });
    expect(foreign.status).toBe(400);
  });

  it("reads its customer's websites and status, and nothing of another customer's (404, as unknown ids)", async () => {
    const created = await createToken({ scopes: ['read'], customerId: mine });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ scopes: ['read'], customerId: mine });
    const token = created.body.token;
    const listed = await api.request<Array<{ id: number }>>('GET', `/api/websites?customerId=${mine}`, {
      token,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.map((w) => w.id)).toEqual([websites.mine.id]);
    for (const path of [`/api/websites/${websites.mine.id}`, `/api/websites/${websites.mine.id}/status`])
      expect((await api.request('GET', path, { token })).status, path).toBe(200);
    for (const path of [
      `/api/websites/${websites.theirs.id}`,
      `/api/websites/${websites.theirs.publicId}`,
      `/api/websites/${websites.theirs.id}/status`,
      `/api/websites/${websites.theirs.id}/results`,
      `/api/customers/${theirs}`,
    ])
      expect((await api.request('GET', path, { token })).status, path).toBe(404);
    // Not a reader of the organization's other resources, nor a writer of its own customer's.
    expect((await api.request('GET', '/api/tokens', { token })).status).toBe(403);
    const write = await api.request('PATCH', `/api/websites/${websites.mine.publicId}`, {
      token,
      body: { name: 'Renamed' },
    });
    expect(write.status).toBe(403);
    // The organization's token list says what it is bound to.
    const tokens = await api.request<Token[]>('GET', '/api/tokens', { token: admin });
    expect(tokens.body.find((t) => t.id === created.body.id)?.customerId).toBe(mine);
  });
});
