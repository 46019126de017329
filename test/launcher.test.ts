import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { findFreePort, isPortOpen } from '../libs/embedded/index.js';
import { uniqueMongoUrl } from './support/harness.js';

interface Launch {
  child: ChildProcess;
  output: () => string;
  dataDir: string;
}

const launches: Launch[] = [];

/** Runs `npm start`'s launcher; with `terminal`, under a pseudo-terminal (`script`), as a person would. */
function launch(env: Record<string, string>, options: { terminal?: boolean } = {}): Launch {
  const dataDir = mkdtempSync(join(tmpdir(), 'webmon-launch-'));
  let output = '';
  const command = [process.execPath, '--import', 'tsx', 'apps/cli/start.ts'];
  const [file, ...args] = options.terminal
    ? ['script', '--quiet', '--return', '--command', command.join(' '), '/dev/null']
    : command;
  const child = spawn(file as string, args, {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', LOG_FORMAT: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const started = { child, output: () => output, dataDir };
  launches.push(started);
  return started;
}

async function waitForOutput(run: Launch, text: string, timeoutMs = 150_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!run.output().includes(text)) {
    if (run.child.exitCode !== null) throw new Error(`launcher exited early:\n${run.output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for "${text}":\n${run.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

afterEach(async () => {
  for (const run of launches.splice(0)) {
    if (run.child.exitCode === null && run.child.pid) process.kill(-run.child.pid, 'SIGKILL');
    rmSync(run.dataDir, { recursive: true, force: true });
  }
});

/** The worker's and notifier's metrics off: the defaults (9101, 9102) may serve a running webmon. */
const NO_METRICS_PORTS = { WORKER_METRICS_PORT: '0', NOTIFIER_METRICS_PORT: '0' };

// The launcher starts several Node processes (and servers): slow on a busy machine, so the limits
// wait on its own "webmon is up" with room to spare instead of a short fixed time.
describe('npm start launcher', { timeout: 240_000 }, () => {
  it('with URLs given, starts only api, worker and notifier, and stops them all on Ctrl-C', async () => {
    const port = await findFreePort();
    const [workerMetrics, notifierMetrics] = [await findFreePort(), await findFreePort()];
    const run = launch({
      WORKER_METRICS_PORT: String(workerMetrics),
      NOTIFIER_METRICS_PORT: String(notifierMetrics),
      MONGODB_URL: uniqueMongoUrl(),
      REDIS_URL: inject('redisUrl'),
      PORT: String(port),
      SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
      LOG_LEVEL: 'info',
    });
    await waitForOutput(run, 'webmon is up');
    expect(run.output()).toContain('MongoDB: using the configured URL');
    // Not a terminal: the processes log JSON lines, for whatever collects them.
    expect(run.output()).toContain('"service":"api"');
    expect(run.output()).not.toContain('starting it on');
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
    // The worker and the notifier serve their metrics and probes on ports of their own, printed.
    for (const [name, metricsPort] of [
      ['worker', workerMetrics],
      ['notifier', notifierMetrics],
    ] as const) {
      expect(run.output()).toContain(`${name} metrics and health: http://127.0.0.1:${metricsPort}/metrics`);
      expect((await fetch(`http://127.0.0.1:${metricsPort}/readyz`)).status).toBe(200);
      expect(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()).toContain('process_cpu');
    }

    run.child.kill('SIGINT');
    const [code] = await once(run.child, 'exit');
    expect(code).toBe(0);
    expect(run.output()).toContain('[start] stopped');
    expect(await isPortOpen('127.0.0.1', port)).toBe(false);
  });

  it('with nothing configured, starts FerretDB and Redis under the data directory and stops them after the apps', async () => {
    const [mongoPort, redisPort, port] = [await findFreePort(), await findFreePort(), await findFreePort()];
    const run = launch({
      ...NO_METRICS_PORTS,
      MONGODB_URL: '',
      REDIS_URL: '',
      SECRETS_KEY: '',
      EMBEDDED_MONGODB_PORT: String(mongoPort),
      EMBEDDED_REDIS_PORT: String(redisPort),
      PORT: String(port),
    });
    await waitForOutput(run, 'webmon is up');
    expect(run.output()).toContain(`MongoDB: starting it on 127.0.0.1:${mongoPort}`);
    expect(run.output()).toContain(`Redis: starting it on 127.0.0.1:${redisPort}`);
    expect(run.output()).toContain('WARNING: SECRETS_KEY is not set');
    const keyFile = join(run.dataDir, 'secrets.key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64')).toHaveLength(32);
    expect(existsSync(join(run.dataDir, 'redis', 'appendonlydir'))).toBe(true);
    expect(existsSync(join(run.dataDir, 'ferretdb', 'sqlite'))).toBe(true);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    const serverPids = [...run.output().matchAll(/started \(pid (\d+)\)/g)].map((m) => Number(m[1]));
    expect(serverPids).toHaveLength(2);

    run.child.kill('SIGINT');
    const [code] = await once(run.child, 'exit');
    expect(code).toBe(0);
    const out = run.output();
    expect(out.indexOf('redis stopped')).toBeGreaterThan(out.indexOf('stopping…'));
    for (const pid of serverPids) expect(processAlive(pid)).toBe(false);
    expect(await isPortOpen('127.0.0.1', mongoPort)).toBe(false);
    expect(await isPortOpen('127.0.0.1', redisPort)).toBe(false);
  });

  it('at a terminal, the processes log readable lines (through a pipe: JSON lines, above)', async () => {
    const run = launch(
      {
        ...NO_METRICS_PORTS,
        MONGODB_URL: uniqueMongoUrl(),
        REDIS_URL: inject('redisUrl'),
        PORT: String(await findFreePort()),
        SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
        LOG_LEVEL: 'info',
      },
      { terminal: true },
    );
    await waitForOutput(run, 'webmon is up');
    // e.g. "[12:01:02.345] INFO: [api] API listening" (coloured), nothing of pino's JSON.
    expect(run.output()).toMatch(/\[\d\d:\d\d:\d\d\.\d{3}\] .*INFO.*\[api\] /);
    expect(run.output()).not.toContain('"level":30');
  });

  it('stops before starting anything, naming the variable to set, when a metrics port is taken', async () => {
    const taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    try {
      const busy = (taken.address() as AddressInfo).port;
      const run = launch({
        NOTIFIER_METRICS_PORT: String(busy),
        WORKER_METRICS_PORT: '0',
        MONGODB_URL: uniqueMongoUrl(),
        REDIS_URL: inject('redisUrl'),
        PORT: String(await findFreePort()),
        SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
      });
      const [code] = await once(run.child, 'exit');
      expect(code).toBe(1);
      expect(run.output()).toContain(
        `port ${busy} for the notifier's metrics is taken (another webmon?): set NOTIFIER_METRICS_PORT to a free port, or 0 for none`,
      );
      expect(run.output()).not.toContain('starting api');
    } finally {
      taken.close();
    }
  });

  it('stops with a message naming the variable when the configuration is bad', async () => {
    const run = launch({ PORT: 'eighty', MONGODB_URL: uniqueMongoUrl(), REDIS_URL: inject('redisUrl') });
    const [code] = await once(run.child, 'exit');
    expect(code).toBe(78);
    expect(run.output()).toContain('PORT:');
  });
});
