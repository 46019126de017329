import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from './support/harness.js';
import { createOrganizationId, createUser } from './support/people.js';

const TRIES = 50;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return (sorted[Math.floor(middle - 0.5)]! + sorted[Math.ceil(middle - 0.5)]!) / 2;
};

// Throttles lifted, so each try reaches the password check (the throttle's own 429 is tested apart).
describe('sign-in timing: an unknown e-mail costs what a wrong password does', { timeout: 180_000 }, () => {
  let api: TestApi;
  let email: string;

  beforeAll(async () => {
    api = await TestApi.start({
      SIGN_IN_FAILURES_PER_ACCOUNT: '100000',
      SIGN_IN_FAILURES_PER_MINUTE: '100000',
      AUTH_FAILURES_PER_MINUTE: '100000',
    });
    ({ email } = await createUser(api, await createOrganizationId(api), 'viewer'));
  });
  afterAll(() => api.stop());

  it(`the medians of ${TRIES} tries each are within 20 %`, async () => {
    const timed = async (body: { email: string; password: string }) => {
      const started = process.hrtime.bigint();
      const res = await api.request('POST', '/api/auth/login', { body });
      expect(res.status).toBe(401);
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const unknown: number[] = [];
    const wrong: number[] = [];
    // Warm up (the dummy hash is made on first use), then alternate, so both meet the same load.
    await timed({ email: 'warm-up@example.com', password: 'not the password' });
    for (let i = 0; i < TRIES; i++) {
      unknown.push(await timed({ email: `nobody-${i}@example.com`, password: 'not the password' }));
      wrong.push(await timed({ email, password: `not the password ${i}` }));
    }
    const [a, b] = [median(unknown), median(wrong)];
    expect(Math.abs(a - b) / Math.max(a, b), `medians: unknown ${a} ms, wrong ${b} ms`).toBeLessThan(0.2);
  });
});
