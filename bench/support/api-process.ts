import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { findFreePort, isPortOpen } from '../../libs/embedded/index.js';
import { type AppRuntime, appEntry } from './app-runtime.js';
import type { BenchStack } from './bench-databases.js';

/**
 * The API as its own process on the benchmark's databases, as `npm start` or the image runs it,
 * listening on a free loopback port; stopped with the benchmark. Token budgets are lifted (the
 * figures are the server's, not a limit's); `env` adds or overrides variables.
 */
export async function startApiProcess(
  stack: BenchStack,
  options: { runtime: AppRuntime; nodeArgs?: string[]; env?: Record<string, string> },
): Promise<{ url: string; port: number; pid: number }> {
  const port = await findFreePort();
  const api = stack.owned(
    spawn(process.execPath, [...(options.nodeArgs ?? []), ...appEntry('api', options.runtime)], {
      env: {
        ...process.env,
        MONGODB_URL: stack.mongoUrl,
        REDIS_URL: stack.redisUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: '1000000',
        REDIS_KEY_PREFIX: `bench${Date.now()}`,
        SECRETS_KEY: process.env.SECRETS_KEY || randomBytes(32).toString('base64'),
        ...options.env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
  for (let waited = 0; !(await isPortOpen('127.0.0.1', port)); waited += 100) {
    if (waited > 60_000 || api.exitCode !== null) throw new Error('the API did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `http://127.0.0.1:${port}`, port, pid: api.pid! };
}
