import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join, resolve } from 'node:path';
import { findFreePort, isPortOpen } from '../../libs/embedded/index.js';
import type { Own } from './bench-databases.js';

export interface PeerBinaries {
  gatus: string;
  blackbox: string;
}

const BUILD_SCRIPT = resolve('../shared/peers/build-peers.sh');

/**
 * Gatus and blackbox_exporter: `GATUS_BIN` / `BLACKBOX_BIN`, or what `../shared/peers/build-peers.sh`
 * builds (outside the repository; the Go module proxy here does not serve Gatus).
 */
export function locatePeers(say: (message: string) => void): PeerBinaries {
  const fromEnv = { gatus: process.env.GATUS_BIN, blackbox: process.env.BLACKBOX_BIN };
  if (fromEnv.gatus && fromEnv.blackbox) {
    for (const path of [fromEnv.gatus, fromEnv.blackbox])
      if (!existsSync(path)) throw new Error(`${path} (GATUS_BIN / BLACKBOX_BIN) does not exist`);
    return { gatus: fromEnv.gatus, blackbox: fromEnv.blackbox };
  }
  if (!existsSync(BUILD_SCRIPT))
    throw new Error(
      `set GATUS_BIN and BLACKBOX_BIN to a Gatus v5 and a blackbox_exporter binary (no ${BUILD_SCRIPT} to build them)`,
    );
  say(`building the peers with ${BUILD_SCRIPT} (a few minutes the first time)…`);
  const [gatus, blackbox] = execFileSync('bash', [BUILD_SCRIPT], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
    .trim()
    .split('\n');
  if (!gatus || !blackbox) throw new Error(`${BUILD_SCRIPT} printed no binary paths`);
  return { gatus: fromEnv.gatus ?? gatus, blackbox: fromEnv.blackbox ?? blackbox };
}

async function untilListening(port: number, child: ChildProcess, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await isPortOpen('127.0.0.1', port))) {
    if (child.exitCode !== null) throw new Error(`${what} exited (code ${child.exitCode}) before listening`);
    if (Date.now() > deadline) throw new Error(`${what} did not listen on ${port} within 30 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Gatus checking every URL every `intervalSeconds` with the benchmark's conditions, results in
 * memory or in SQLite (as it would persist them), up to 200 checks at once (its default is 3).
 * Logs at WARN, as our worker runs in the benchmark.
 */
export async function startGatus(options: {
  binary: string;
  dir: string;
  urls: readonly string[];
  intervalSeconds: number;
  storage: 'memory' | 'sqlite';
  caFile: string;
  own: Own;
}): Promise<ChildProcess> {
  const port = await findFreePort();
  const config = {
    concurrency: 200,
    web: { address: '127.0.0.1', port },
    storage:
      options.storage === 'sqlite'
        ? { type: 'sqlite', path: join(options.dir, 'gatus.db') }
        : { type: 'memory' },
    endpoints: options.urls.map((url, index) => ({
      name: `site-${index + 1}`,
      url,
      interval: `${options.intervalSeconds}s`,
      conditions: ['[STATUS] == 200', '[BODY] == pat(*Welcome*)', '[RESPONSE_TIME] < 5000'],
    })),
  };
  // JSON is YAML: Gatus reads it as its configuration file.
  const path = join(options.dir, `gatus-${options.storage}.yaml`);
  writeFileSync(path, JSON.stringify(config));
  const child = options.own(
    spawn(options.binary, [], {
      env: {
        PATH: process.env.PATH,
        GATUS_CONFIG_PATH: path,
        GATUS_LOG_LEVEL: 'WARN',
        SSL_CERT_FILE: options.caFile,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
  await untilListening(port, child, 'gatus');
  return child;
}

/** blackbox_exporter with one module: status 200, body matching the keyword, the farm's CA trusted. */
export async function startBlackbox(options: {
  binary: string;
  dir: string;
  caFile: string;
  own: Own;
}): Promise<{ child: ChildProcess; port: number }> {
  const port = await findFreePort();
  const config = {
    modules: {
      page: {
        prober: 'http',
        timeout: '5s',
        http: {
          valid_status_codes: [200],
          fail_if_body_not_matches_regexp: ['Welcome'],
          preferred_ip_protocol: 'ip4',
          tls_config: { ca_file: options.caFile },
        },
      },
    },
  };
  const path = join(options.dir, 'blackbox.yml');
  writeFileSync(path, JSON.stringify(config));
  const child = options.own(
    spawn(
      options.binary,
      [`--config.file=${path}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    ),
  );
  await untilListening(port, child, 'blackbox_exporter');
  return { child, port };
}

/**
 * Asks blackbox_exporter to probe the URLs in turn, `perSecond` probes a second spread evenly (as a
 * Prometheus scraping each target every interval would), until stopped.
 */
export function driveBlackbox(port: number, urls: readonly string[], perSecond: number): { stop(): void } {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  let next = 0;
  const timer = setInterval(() => {
    const url = urls[next++ % urls.length]!;
    const probe = request({
      host: '127.0.0.1',
      port,
      path: `/probe?module=page&target=${encodeURIComponent(url)}`,
      agent,
    });
    probe.on('response', (response) => response.resume());
    probe.on('error', () => undefined);
    probe.end();
  }, 1000 / perSecond);
  return {
    stop() {
      clearInterval(timer);
      agent.destroy();
    },
  };
}
