import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** What the CLI answered: its exit code, and what it printed (a failure's stdout carries its stderr too). */
export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `webmon <args>` (apps/cli/webmon.ts) against an API with a token, as a person would. */
export const runWebmon = (
  api: { url: string; token: string },
  args: string[],
  env: Record<string, string> = {},
): Promise<CliOutcome> =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', 'apps/cli/webmon.ts', ...args], {
    env: { ...process.env, WEBMON_URL: api.url, WEBMON_TOKEN: api.token, ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: CliOutcome) => ({
      code: error.code,
      stdout: `${error.stdout}${error.stderr}`,
      stderr: error.stderr,
    }),
  );
