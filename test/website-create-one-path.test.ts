import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, TestApi } from './support/harness.js';

interface Problem {
  detail: string;
  errors: Array<{ path: string; message: string }>;
}
interface BatchResult {
  items: Array<{ status: string; website: Record<string, unknown> | null }>;
}

/**
 * `POST /api/websites` is a batch of one: every rule is judged by the batch's code, so each refusal
 * names the same fields with the same words through both routes (a single create without the
 * `items.0.` prefix), and what each writes has the same shape.
 */
describe('one website creation: POST /api/websites is a batch of one', () => {
  let api: TestApi;
  let token: string;
  let customerId: number;
  let full: number;

  beforeAll(async () => {
    // Private targets refused (the default): the SSRF guard is one of the rules compared.
    api = await TestApi.start();
    ({ token } = await api.createOrganization(['admin']));
    const pkg = await createPackage(api, token, {
      limits: { maxWebsites: 1, minCheckIntervalSeconds: 60 },
      features: { multiRegion: false },
    });
    customerId = await createCustomer(api, token, pkg.id, 'Open');
    full = await createCustomer(api, token, pkg.id, 'Full');
    const first = await api.request('POST', '/api/websites', {
      token,
      body: { customerId: full, name: 'Only', url: 'https://example.com/' },
    });
    expect(first.status).toBe(201);
  });
  afterAll(() => api.stop());

  const single = (body: Record<string, unknown>) =>
    api.request<Problem & Record<string, unknown>>('POST', '/api/websites', { token, body });
  const batchOfOne = (body: Record<string, unknown>) =>
    api.request<Problem & BatchResult>('POST', '/api/websites/batch', { token, body: { items: [body] } });
  const countOf = async (customer: number) =>
    (await api.request<unknown[]>('GET', `/api/websites?customerId=${customer}`, { token })).body.length;
  const site = (extra: Record<string, unknown>) => ({
    customerId,
    name: 'Site',
    url: 'https://example.com/',
    ...extra,
  });

  it.each([
    ['the SSRF guard', { url: 'http://10.0.0.1/' }, 400, 'url'],
    ['a rule across fields', { checkInterval: 60, timeoutSeconds: 60 }, 400, 'timeoutSeconds'],
    ['the customer', { customerId: 987_654 }, 400, 'customerId'],
    ['the channels', { notificationChannelIds: [987_654] }, 400, 'notificationChannelIds.0'],
    ['the package’s limits', { checkInterval: 30 }, 403, 'checkInterval'],
    ['the package’s features', { regions: ['eu', 'us'] }, 403, 'regions'],
  ])(
    '%s: the same fields and words through both routes, nothing written',
    async (_rule, extra, status, field) => {
      // Built here: the customer exists once beforeAll ran.
      const body = site(extra);
      const before = await countOf(customerId);
      const one = await single(body);
      const many = await batchOfOne(body);
      expect(one.status).toBe(status);
      // A batch's refusals are all 400 (bad input) unless every one is for room.
      expect(many.status).toBe(400);
      expect(one.body.errors.map((e) => e.path)).toEqual([field]);
      expect(many.body.errors).toEqual(one.body.errors.map((e) => ({ ...e, path: `items.0.${e.path}` })));
      expect(await countOf(customerId)).toBe(before);
    },
  );

  it('maxWebsites is judged once: 403 for a single create, 409 for a batch, each naming customerId, nothing written', async () => {
    const body = site({ customerId: full });
    const one = await single(body);
    expect(one.status).toBe(403);
    expect(one.body.detail).toContain('maxWebsites');
    expect(one.body.errors.map((e) => e.path)).toEqual(['customerId']);
    const many = await batchOfOne(body);
    expect(many.status).toBe(409);
    expect(many.body.errors.map((e) => e.path)).toEqual(['items.0.customerId']);
    expect(await countOf(full)).toBe(1);
  });

  it('a single create past its room names the room first; a batch names the fields (it takes no room)', async () => {
    const body = site({ customerId: full, url: 'http://10.0.0.1/' });
    const one = await single(body);
    expect(one.status).toBe(403);
    expect(one.body.errors.map((e) => e.path)).toEqual(['customerId']);
    const many = await batchOfOne(body);
    expect(many.status).toBe(400);
    expect(many.body.errors.map((e) => e.path)).toEqual(['items.0.url']);
  });

  it('writes the same website through both routes', async () => {
    const body = site({ name: 'Same', customHeaders: { 'X-Probe': '1' }, checkInterval: 120 });
    const one = await single(body);
    expect(one.status).toBe(201);
    expect(one.headers.get('location')).toBe(`/api/websites/${one.body.publicId}`);
    await api.request('DELETE', `/api/websites/${one.body.publicId}`, { token });
    const many = await batchOfOne(body);
    expect(many.status).toBe(200);
    const website = many.body.items[0]?.website ?? {};
    const sameBut = ({ id, publicId, createdAt, updatedAt, ...rest }: Record<string, unknown>) => rest;
    expect(sameBut(website)).toEqual(sameBut(one.body));
  });
});
