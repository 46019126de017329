import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

export interface SupervisedProcess {
  name: string;
  /** Node.js arguments, e.g. `['--import', 'tsx', 'apps/api/main.ts']`. */
  args: string[];
  /** Variables of this process only, over the shared environment. */
  env?: NodeJS.ProcessEnv;
}

interface Running {
  name: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

/**
 * Runs the product's processes as children with an IPC channel (they stop when it closes, so none
 * outlives the launcher), each in its own process group so that a terminal's Ctrl-C reaches only the
 * launcher, which then stops them in order.
 */
export class ProcessSupervisor {
  private readonly running: Running[] = [];
  private stopping = false;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly onUnexpectedExit: (name: string, code: number | null) => void,
  ) {}

  /** Starts a process and resolves once it reports `ready` (or rejects if it exits first). */
  async start(spec: SupervisedProcess): Promise<void> {
    const child = spawn(process.execPath, spec.args, {
      env: { ...this.env, ...spec.env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      detached: true,
    });
    const exited = once(child, 'exit').then(([code]) => code as number | null);
    this.running.push({ name: spec.name, child, exited });
    void exited.then((code) => {
      if (!this.stopping) this.onUnexpectedExit(spec.name, code);
    });
    await new Promise<void>((resolve, reject) => {
      child.on('message', (message: unknown) => {
        if (
          typeof message === 'object' &&
          message !== null &&
          (message as { type?: unknown }).type === 'ready'
        )
          resolve();
      });
      void exited.then((code) => reject(new Error(`${spec.name} exited with code ${code} while starting`)));
    });
  }

  /** SIGTERM to every child at once; SIGKILL to any still running after `timeoutMs`. */
  async stopAll(timeoutMs: number): Promise<void> {
    this.stopping = true;
    await Promise.all(
      this.running.map(async ({ child, exited }) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        await exited;
        clearTimeout(killer);
      }),
    );
  }
}
