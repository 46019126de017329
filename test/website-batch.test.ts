import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, scheduledInterval, type TestApi } from './support/harness.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';
import { createUser, signIn, withCookie } from './support/people.js';

interface BatchResult {
  dryRun: boolean;
  created: number;
  invalid: number;
  items: Array<{
    index: number;
    status: 'created' | 'valid' | 'invalid';
    website: { id: number; publicId: string; name: string } | null;
    errors: Array<{ path: string; message: string }>;
  }>;
}
interface Problem {
  detail: string;
  errors: Array<{ path: string; message: string }>;
}

describe('POST /api/websites/batch: many websites at once', () => {
  let stack: MonitoringStack;
  let api: TestApi;
  let token: string;
  let customerId: number;
  let small: number;

  beforeAll(async () => {
    stack = await startMonitoringStack('batch-node');
    ({ api, token, customerId } = stack);
    const pkg = await createPackage(api, token, { limits: { maxWebsites: 3, minCheckIntervalSeconds: 10 } });
    small = await createCustomer(api, token, pkg.id, 'Small');
  }, 60_000);
  afterAll(() => stack.stop());

  const batch = <T = BatchResult>(body: Record<string, unknown>, as = token) =>
    api.request<T>('POST', '/api/websites/batch', { token: as, body });
  const site = (name: string, extra: Record<string, unknown> = {}) => ({
    customerId,
    name,
    url: `${stack.target.url}/ok`,
    checkInterval: 10,
    ...extra,
  });
  const countOf = async (customer: number) => {
    const listed = await api.request<unknown[]>('GET', `/api/websites?customerId=${customer}&limit=500`, {
      token,
    });
    expect(listed.status).toBe(200);
    return listed.body.length;
  };

  it('any invalid item: 400 naming each item and field, nothing written', async () => {
    const before = await countOf(customerId);
    const answer = await batch<Problem>({
      items: [
        site('Good one'),
        site('Bad URL', { url: 'not a url' }),
        site('Slow', { timeoutSeconds: 20 }),
        { ...site('Stranger'), customerId: 999_999 },
        site('Bad check', { checkConfig: { keyword: 'x'.repeat(2000), checkKeywordEnabled: true } }),
        { name: 'No customer' },
      ],
    });
    expect(answer.status).toBe(400);
    const paths = answer.body.errors.map((e) => e.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'items.1.url',
        'items.2.timeoutSeconds',
        'items.3.customerId',
        'items.4.checkConfig.keyword',
        'items.5.customerId',
        'items.5.url',
      ]),
    );
    expect(paths.some((path) => path.startsWith('items.0.'))).toBe(false);
    expect(answer.body.detail).toContain('nothing was written');
    expect(await countOf(customerId)).toBe(before);
  });

  it('a dry run says what would be created and writes nothing', async () => {
    const before = await countOf(customerId);
    const answer = await batch({
      dryRun: true,
      partial: true,
      items: [site('Would'), site('Would not', { url: 'ftp://x' })],
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ dryRun: true, created: 0, invalid: 1 });
    expect(answer.body.items.map((i) => i.status)).toEqual(['valid', 'invalid']);
    expect(await countOf(customerId)).toBe(before);
  });

  it('partial: the valid ones are written with their check configuration and scheduled, the others listed', async () => {
    const answer = await batch({
      partial: true,
      items: [
        site('Shop', { checkConfig: { checkKeywordEnabled: true, keyword: 'Shop' } }),
        site('Blog', { regions: [] }),
        site('Broken', { httpMethod: 'HEAD', requestBody: 'x' }),
        site('Listed', { notificationChannelIds: [424_242] }),
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ dryRun: false, created: 2, invalid: 2 });
    expect(answer.body.items.map((i) => i.status)).toEqual(['created', 'created', 'invalid', 'invalid']);
    expect(answer.body.items[2]?.errors.map((e) => e.path)).toEqual(['items.2.requestBody']);
    expect(answer.body.items[3]?.errors.map((e) => e.path)).toEqual(['items.3.notificationChannelIds.0']);
    const shop = answer.body.items[0]?.website;
    const config = await api.request<{ checkKeywordEnabled: boolean; keyword: string }>(
      'GET',
      `/api/websites/${shop?.publicId}/check-config`,
      { token },
    );
    expect(config.body).toMatchObject({ checkKeywordEnabled: true, keyword: 'Shop' });
    expect(await scheduledInterval(api, shop?.id ?? 0)).toBe(10_000);
    // Checked like any website: its status comes from the worker.
    await expect.poll(async () => (await stack.status(shop?.id ?? 0)).status, { timeout: 30_000 }).toBe('up');
    const ids = answer.body.items.flatMap((i) => (i.website ? [i.website.id] : []));
    expect(new Set(ids).size).toBe(2);
  }, 60_000);

  it('the package’s maxWebsites holds for the batch as a whole', async () => {
    const forSmall = (name: string) => ({ ...site(name), customerId: small });
    expect((await batch({ items: [forSmall('S1')] })).status).toBe(200);
    const over = await batch<Problem>({ items: [forSmall('S2'), forSmall('S3'), forSmall('S4')] });
    expect(over.status).toBe(409);
    expect(over.body.errors.map((e) => e.path)).toEqual(['items.2.customerId']);
    // An item invalid in itself beside one past the room: bad input first (400), still nothing written.
    const mixed = await batch<Problem>({
      items: [forSmall('S2'), { ...forSmall('S3'), url: 'not a url' }, forSmall('S4'), forSmall('S5')],
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.errors.map((e) => e.path)).toEqual(['items.1.url', 'items.3.customerId']);
    expect(await countOf(small)).toBe(1);
    const partial = await batch({ partial: true, items: [forSmall('S2'), forSmall('S3'), forSmall('S4')] });
    expect(partial.body.items.map((i) => i.status)).toEqual(['created', 'created', 'invalid']);
    expect(await countOf(small)).toBe(3);
  });

  it('bounds and access: 1,001 items refused, a viewer refused, another organization’s customer unknown', async () => {
    const tooMany = await batch<Problem>({ items: Array.from({ length: 1001 }, (_, i) => site(`W${i}`)) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors.map((e) => e.path)).toEqual(['items']);
    expect((await batch<Problem>({ items: [] })).body.errors.map((e) => e.path)).toEqual(['items']);
    const viewer = await signIn(api, (await createUser(api, stack.organizationId, 'viewer')).email);
    expect(
      (await withCookie(api, viewer, 'POST', '/api/websites/batch', { body: { items: [site('V')] } })).status,
    ).toBe(403);
    const other = await api.createOrganization(['admin']);
    const theirs = await createCustomer(api, other.token, (await createPackage(api, other.token)).id);
    const foreign = await batch<Problem>({ items: [{ ...site('Foreign'), customerId: theirs }] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors).toEqual([
      { path: 'items.0.customerId', message: `No customer ${theirs} in your organization` },
    ]);
  });
});
