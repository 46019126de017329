/**
 * `npm start`: the whole service on one machine. Uses MONGODB_URL / REDIS_URL when set; otherwise
 * the servers at the default local ports, started under ./.data/ when nothing listens there. Then
 * runs api, worker and notifier until Ctrl-C, and stops everything it started.
 */

import { resolve } from 'node:path';
import { type AppConfig, loadConfigOrExit } from '../../libs/config/index.js';
import { type EmbeddedServer, isPortOpen, prepareLocalStack } from '../../libs/embedded/index.js';
import { errorMessage } from '../../libs/errors/index.js';
import { ProcessSupervisor } from '../../libs/runtime/index.js';

const say = (message: string) => process.stdout.write(`[start] ${message}\n`);
const dataDir = resolve(process.env.DATA_DIR || '.data');

let config: AppConfig | undefined;
let started: EmbeddedServer[] = [];
let supervisor: ProcessSupervisor | undefined;
let stopping: Promise<void> | undefined;

/** Stops the apps, then the servers this launcher started; later calls wait for the first. */
function shutdown(exitCode: number, reason: string): Promise<void> {
  stopping ??= stopEverything(exitCode, reason);
  return stopping;
}

async function stopEverything(exitCode: number, reason: string): Promise<void> {
  say(`${reason}: stopping…`);
  const timeoutMs = (config?.SHUTDOWN_TIMEOUT_SECONDS ?? 25) * 1000 + 5000;
  await supervisor?.stopAll(timeoutMs);
  for (const server of [...started].reverse()) {
    await server.stop();
    say(`${server.name} stopped`);
  }
  say('stopped');
  process.exit(exitCode);
}

process.on('SIGINT', () => void shutdown(0, 'interrupted'));
process.on('SIGTERM', () => void shutdown(0, 'terminated'));

try {
  // Validate what the user configured before starting anything.
  loadConfigOrExit();
  const stack = await prepareLocalStack({ dataDir, env: process.env, say });
  started = stack.started;
  const env = {
    ...process.env,
    MONGODB_URL: stack.mongoUrl,
    REDIS_URL: stack.redisUrl,
    SECRETS_KEY: stack.secretsKey,
    // A person at a terminal reads lines, a pipe (a log shipper, a service manager) gets JSON.
    LOG_FORMAT: process.env.LOG_FORMAT || (process.stdout.isTTY ? 'pretty' : 'json'),
  };
  config = loadConfigOrExit(env);
  supervisor = new ProcessSupervisor(
    env,
    (name, code) => void shutdown(1, `${name} exited unexpectedly (code ${code})`),
  );
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  // The API serves its metrics on its own port; the worker and the notifier get one each.
  const metricsPorts: Record<string, { port: number; setting: string }> = {
    worker: { port: config.WORKER_METRICS_PORT, setting: 'WORKER_METRICS_PORT' },
    notifier: { port: config.NOTIFIER_METRICS_PORT, setting: 'NOTIFIER_METRICS_PORT' },
  };
  // Checked before anything starts: a second `npm start` (another checkout, a test beside a running
  // service) would otherwise see its worker die of EADDRINUSE without saying what to change.
  for (const [name, { port, setting }] of Object.entries(metricsPorts))
    if (port !== 0 && (await isPortOpen(host, port)))
      throw new Error(
        `port ${port} for the ${name}'s metrics is taken (another webmon?): set ${setting} to a free port, or 0 for none`,
      );
  for (const name of ['api', 'worker', 'notifier']) {
    say(`starting ${name}…`);
    const metricsPort = metricsPorts[name]?.port;
    await supervisor.start({
      name,
      args: ['--import', 'tsx', resolve(`apps/${name}/main.ts`)],
      ...(metricsPort ? { env: { METRICS_PORT: String(metricsPort) } } : {}),
    });
    if (metricsPort) say(`${name} metrics and health: http://${host}:${metricsPort}/metrics`);
  }
  say(
    `webmon is up: http://${host}:${config.PORT}/ (the dashboard; the API under /api)  (Ctrl-C stops everything)`,
  );
  say('create an organization and its admin token: npm run admin -- create-org --name "My agency"');
} catch (error) {
  process.stderr.write(`[start] ${errorMessage(error)}\n`);
  await shutdown(1, 'start failed');
}
