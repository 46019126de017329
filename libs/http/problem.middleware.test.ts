import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logging/index.js';
import { AppError } from './app-error.js';
import type { AppState } from './context.js';
import { problemMiddleware } from './problem.middleware.js';

/** A server whose every request is refused as `refusal` says. */
async function refusing(refusal: () => AppError) {
  const app = new Koa<AppState>();
  app.use(async (ctx, next) => {
    ctx.state.log = createLogger('test', 'silent');
    ctx.state.requestId = 'r1';
    await next();
  });
  app.use(problemMiddleware([]));
  app.use(() => {
    throw refusal();
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const timed = async (url: string) => {
  const started = performance.now();
  const answer = await fetch(url);
  await answer.arrayBuffer();
  return { status: answer.status, ms: performance.now() - started };
};

describe('a refusal for too many requests', () => {
  it('is answered a quarter second after it is decided, so a client ignoring Retry-After cannot ask hundreds of times a second', async () => {
    const server = await refusing(
      () => new AppError('rate-limited', { detail: 'over', headers: { 'Retry-After': '30' } }),
    );
    const answers = await Promise.all([timed(server.url), timed(server.url)]);
    await server.close();
    for (const answer of answers) {
      expect(answer.status).toBe(429);
      // Timers may fire a millisecond early; both were held side by side, not one after the other.
      expect(answer.ms).toBeGreaterThanOrEqual(240);
    }
  });

  it('is held no longer than its Retry-After, and other problems not at all', async () => {
    const soon = await refusing(
      () => new AppError('rate-limited', { detail: 'over', headers: { 'Retry-After': '0' } }),
    );
    const other = await refusing(() => new AppError('forbidden', { detail: 'no' }));
    const [refused, forbidden] = await Promise.all([timed(soon.url), timed(other.url)]);
    await Promise.all([soon.close(), other.close()]);
    expect(refused).toMatchObject({ status: 429 });
    expect(forbidden).toMatchObject({ status: 403 });
    expect(refused.ms).toBeLessThan(200);
    expect(forbidden.ms).toBeLessThan(200);
  });
});
