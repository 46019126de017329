import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../apps/worker/worker.js';
import { createLogger } from '../libs/logging/index.js';
import type { RunningService } from '../libs/runtime/index.js';
import { createCustomer, createPackage, scheduledInterval, TestApi } from './support/harness.js';

describe('customer cancellation at its date (worker, delayed BullMQ job)', () => {
  let api: TestApi;
  let token: string;
  let packageId: number;
  let worker: RunningService | undefined;

  const startTestWorker = async () => {
    worker = await startWorker(
      { ...api.config, NODE_PUBLIC_IP: '203.0.113.9' },
      createLogger('worker', 'silent'),
    );
  };
  const customerWithWebsite = async () => {
    const customerId = await createCustomer(api, token, packageId);
    const website = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'W', url: 'https://w.example.com/' },
    });
    return { customerId, websiteId: website.body.id };
  };
  const markFor = (customerId: number, at: Date) =>
    api.request('PATCH', `/api/customers/${customerId}`, {
      token,
      body: { status: 'marked_for_cancellation', cancellationDate: at.toISOString() },
    });
  /** Resolves once `date` has passed: a cancellation planned for it is due from then on. */
  const datePassed = (date: Date) =>
    new Promise((resolve) => setTimeout(resolve, Math.max(0, date.getTime() - Date.now()) + 50));
  const statusOf = async (customerId: number) =>
    (await api.request<{ status: string }>('GET', `/api/customers/${customerId}`, { token })).body.status;

  beforeAll(async () => {
    api = await TestApi.start();
    ({ token } = await api.createOrganization(['admin']));
    packageId = (await createPackage(api, token)).id;
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });
  afterAll(() => api.stop());

  it('cancels the customer when the date passes and stops checking its websites; reactivation restarts them', async () => {
    await startTestWorker();
    const { customerId, websiteId } = await customerWithWebsite();
    expect(await scheduledInterval(api, websiteId)).toBe(300_000);
    const cancellationDate = new Date(Date.now() + 1500);
    await markFor(customerId, cancellationDate);
    expect(await statusOf(customerId)).toBe('marked_for_cancellation');
    expect(await scheduledInterval(api, websiteId)).toBe(300_000);

    await expect.poll(() => statusOf(customerId), { timeout: 15_000, interval: 250 }).toBe('cancelled');
    // The status is written first, then the customer's websites are unscheduled (a moment later).
    await expect
      .poll(() => scheduledInterval(api, websiteId), { timeout: 5_000, interval: 100 })
      .toBeUndefined();
    // A cancelled customer keeps when it was cancelled, also across other changes.
    const cancelled = await api.request('GET', `/api/customers/${customerId}`, { token });
    expect(cancelled.body).toMatchObject({ cancellationDate: cancellationDate.toISOString() });
    const renamed = await api.request('PATCH', `/api/customers/${customerId}`, {
      token,
      body: { name: 'Gone Ltd' },
    });
    expect(renamed.body).toMatchObject({
      status: 'cancelled',
      cancellationDate: cancellationDate.toISOString(),
    });
    expect((await api.request('GET', `/api/websites/${websiteId}`, { token })).status).toBe(200);

    expect(
      (await api.request('PATCH', `/api/customers/${customerId}`, { token, body: { status: 'active' } }))
        .status,
    ).toBe(200);
    expect(await scheduledInterval(api, websiteId)).toBe(300_000);
  }, 30_000);

  it('a job planned while no worker ran is carried out by the next worker (it lives in Redis)', async () => {
    const { customerId, websiteId } = await customerWithWebsite();
    const cancellationDate = new Date(Date.now() + 1000);
    await markFor(customerId, cancellationDate);
    // Due, and only a worker carries it out: until one runs, nothing cancels the customer.
    await datePassed(cancellationDate);
    expect(await statusOf(customerId)).toBe('marked_for_cancellation');
    await startTestWorker();
    await expect.poll(() => statusOf(customerId), { timeout: 15_000, interval: 250 }).toBe('cancelled');
    // The status is written first, then the customer's websites are unscheduled (a moment later).
    await expect
      .poll(() => scheduledInterval(api, websiteId), { timeout: 5_000, interval: 100 })
      .toBeUndefined();
  }, 30_000);

  it('a lost job (Redis flushed) is made good from MongoDB when a worker starts', async () => {
    const { customerId } = await customerWithWebsite();
    const later = await customerWithWebsite();
    const cancellationDate = new Date(Date.now() + 1000);
    await markFor(customerId, cancellationDate);
    const laterDate = new Date(Date.now() + 3_600_000);
    await markFor(later.customerId, laterDate);
    const redis = new Redis(api.config.REDIS_URL);
    const queue = new Queue('customer-lifecycle', { connection: redis, prefix: api.config.REDIS_KEY_PREFIX });
    try {
      await queue.obliterate({ force: true });
      await datePassed(cancellationDate);
      await startTestWorker();
      expect(await statusOf(customerId)).toBe('cancelled');
      expect(await statusOf(later.customerId)).toBe('marked_for_cancellation');
      expect((await queue.getJob(`cancel-${later.customerId}`))?.data.cancellationDate).toBe(
        laterDate.toISOString(),
      );
    } finally {
      await queue.close();
      redis.disconnect();
    }
  }, 30_000);

  it('a stale job (customer reactivated meanwhile) does nothing', async () => {
    await startTestWorker();
    const { customerId, websiteId } = await customerWithWebsite();
    const control = await customerWithWebsite();
    const cancellationDate = new Date(Date.now() + 1500);
    await markFor(customerId, cancellationDate);
    await markFor(control.customerId, new Date(cancellationDate.getTime() + 1000));
    await api.request('PATCH', `/api/customers/${customerId}`, { token, body: { status: 'active' } });
    // The control's job, due a second later, is carried out: the worker ran what came due meanwhile.
    await expect
      .poll(() => statusOf(control.customerId), { timeout: 20_000, interval: 250 })
      .toBe('cancelled');
    expect(await statusOf(customerId)).toBe('active');
    expect(await scheduledInterval(api, websiteId)).toBe(300_000);
  }, 30_000);

  it('deleting a customer with websites is refused (409); without websites it works', async () => {
    const { customerId, websiteId } = await customerWithWebsite();
    expect((await api.request('DELETE', `/api/customers/${customerId}`, { token })).status).toBe(409);
    const website = await api.request<{ publicId: string }>('GET', `/api/websites/${websiteId}`, { token });
    expect((await api.request('DELETE', `/api/websites/${website.body.publicId}`, { token })).status).toBe(
      204,
    );
    expect((await api.request('DELETE', `/api/customers/${customerId}`, { token })).status).toBe(204);
    expect((await api.request('GET', `/api/customers/${customerId}`, { token })).status).toBe(404);
  });
});
