import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import type { BenchStack } from './bench-databases.js';

/**
 * A notifier as its own process (`apps/notifier/main.ts` through tsx, as `npm start` runs it), so a
 * benchmark can really stop or kill it. Answers once it said it is ready (runService's `ready`
 * over IPC), on the benchmark's databases; `env` adds or overrides variables (the API's
 * REDIS_KEY_PREFIX and SECRETS_KEY, which it must share).
 */
export async function startNotifierProcess(
  stack: BenchStack,
  env: Record<string, string>,
): Promise<ChildProcess> {
  const notifier = stack.owned(
    spawn(process.execPath, ['--import', 'tsx', 'apps/notifier/main.ts'], {
      env: {
        ...process.env,
        MONGODB_URL: stack.mongoUrl,
        REDIS_URL: stack.redisUrl,
        METRICS_PORT: '0',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  const ready = new Promise<void>((resolve) =>
    notifier.on('message', (message: { type?: string }) => message.type === 'ready' && resolve()),
  );
  const exited = once(notifier, 'exit').then(([code, signal]) => {
    throw new Error(`the notifier exited before it was ready (${signal ?? code})`);
  });
  await Promise.race([ready, exited]);
  exited.catch(() => undefined);
  return notifier;
}

/** Sends `signal` and waits until the process has exited: how long that took (ms) and its exit. */
export async function stopProcess(
  child: ChildProcess,
  signal: 'SIGTERM' | 'SIGKILL',
): Promise<{ ms: number; exit: string }> {
  const started = performance.now();
  if (child.exitCode !== null || child.signalCode !== null)
    return { ms: 0, exit: String(child.signalCode ?? child.exitCode) };
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  child.kill(signal);
  const [code, by] = await exited;
  return { ms: performance.now() - started, exit: by ?? `code ${code}` };
}
