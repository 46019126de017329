import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** How a process of ours runs: compiled JavaScript as the Docker image does (`dist`), or TypeScript through tsx (`npm start`). */
export type AppRuntime = 'dist' | 'tsx';

/** The node arguments that start `apps/<app>/main` in that runtime. */
export function appEntry(app: 'api' | 'worker', runtime: AppRuntime): string[] {
  if (runtime === 'tsx') return ['--import', 'tsx', `apps/${app}/main.ts`];
  const compiled = `dist/apps/${app}/main.js`;
  if (!existsSync(compiled))
    throw new Error(`${compiled} is missing: run \`npm run build\` first, or pass --runtime tsx`);
  return [compiled];
}

/** Compiles the sources to dist/ (as `npm run build`, without the dashboard's assets) for `dist`. */
export function compileForDist(say: (message: string) => void): void {
  say('compiling the sources (npm run build), as the Docker image runs them…');
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
}

/** `--runtime` read from the command line, or an error saying what it takes. */
export function parseRuntime(value: string | undefined): AppRuntime {
  if (value !== 'dist' && value !== 'tsx') throw new Error('--runtime must be dist or tsx');
  return value;
}
