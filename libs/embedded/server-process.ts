import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, constants, createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { errorMessage } from '../errors/index.js';
import { waitForPort } from './ports.js';

/** A database server this project started and is responsible for stopping. */
export interface EmbeddedServer {
  name: string;
  url: string;
  port: number;
  pid: number;
  /** Stops the server (SIGTERM, then SIGKILL after 10 s) and waits for it to exit. */
  stop(): Promise<void>;
}

/** The first executable named `name` on PATH or in `extraDirs`. */
export function locateBinary(name: string, extraDirs: readonly string[] = []): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), ...extraDirs].filter(Boolean);
  for (const dir of dirs) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; try the next directory
    }
  }
  return undefined;
}

/** Where `go install` puts binaries. */
export function goBinDirs(): string[] {
  return [process.env.GOBIN, join(process.env.GOPATH ?? join(homedir(), 'go'), 'bin')].filter(
    (dir): dir is string => Boolean(dir),
  );
}

function tail(file: string, lines = 15): string {
  if (!existsSync(file)) return '';
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

/**
 * Spawns a server with its output in `<dataDir>/<name>.log`, waits until it accepts connections on
 * 127.0.0.1:port, and explains (with the log's last lines) when it does not.
 */
export async function startServerProcess(options: {
  name: string;
  binary: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  dataDir: string;
  port: number;
  url: string;
  startTimeoutMs?: number;
}): Promise<EmbeddedServer> {
  mkdirSync(options.dataDir, { recursive: true });
  const logFile = join(options.dataDir, `${options.name}.log`);
  const log = createWriteStream(logFile, { flags: 'a' });
  await once(log, 'open');
  const child: ChildProcess = spawn(options.binary, options.args, {
    cwd: options.dataDir,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', log, log],
  });
  let exited = false;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      log.end();
      resolve();
    });
  });
  child.once('error', () => {
    exited = true;
  });
  try {
    await waitForPort('127.0.0.1', options.port, {
      timeoutMs: options.startTimeoutMs ?? 30_000,
      isAlive: () => !exited,
      what: options.name,
    });
  } catch (error) {
    child.kill('SIGKILL');
    await exit;
    const reason = errorMessage(error);
    throw new Error(`${reason}. Last lines of ${logFile}:\n${tail(logFile)}`);
  }
  return {
    name: options.name,
    url: options.url,
    port: options.port,
    pid: child.pid ?? -1,
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exit;
      clearTimeout(killer);
    },
  };
}
