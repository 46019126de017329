/**
 * `npm run -s webmon -- plan|apply -f monitoring.yaml [--prune]`: monitoring as code. Compares the
 * file with the organization through the public API (WEBMON_URL, WEBMON_TOKEN) and carries the
 * difference out. Exit codes for CI: 0 nothing to change (or applied), 2 changes planned, 1 error.
 */

import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import {
  ApiConfiguration,
  applyPlan,
  fileFromExport,
  monitoringFileJsonSchema,
  outcomeLine,
  PlanProblems,
  planChanges,
  planCounts,
  planText,
  readMonitoringFile,
} from '../../libs/as-code/index.js';
import { errorMessage } from '../../libs/errors/index.js';

const USAGE = `Usage: npm run -s webmon -- <command> [options]

Commands:
  plan   -f <file> [--prune]   Print what apply would change (exit 0: nothing, 2: changes)
  apply  -f <file> [--prune]   Make the organization match the file, printing each step
  export [-o <file>]           Write the organization's configuration as a monitoring file (YAML)
  schema                       Print the monitoring file's JSON Schema

Options:
  -f, --file <path>   The monitoring file (YAML or JSON)
      --prune         Also delete what the organization has and the file does not describe
  -o, --output <path> Where export writes (default: standard output)

Environment: WEBMON_URL (the API, e.g. https://monitoring.example.com), WEBMON_TOKEN (an API token
with the write scope; read is enough for plan and export).`;

const EXIT = { ok: 0, error: 1, changes: 2 } as const;

class UsageError extends Error {}

function connection(): ApiConfiguration {
  const url = process.env.WEBMON_URL;
  const token = process.env.WEBMON_TOKEN;
  if (!url)
    throw new UsageError('WEBMON_URL is not set: the API’s address, e.g. https://monitoring.example.com');
  if (!token)
    throw new UsageError('WEBMON_TOKEN is not set: an API token (POST /api/tokens or the app’s Tokens page)');
  try {
    return new ApiConfiguration(url, token);
  } catch (error) {
    throw new UsageError(`WEBMON_URL: ${(error as Error).message}`);
  }
}

async function loadPlan(path: string | undefined, prune: boolean) {
  if (!path) throw new UsageError('give the monitoring file: -f monitoring.yaml');
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read ${path}: ${error.code ?? error.message}`);
  });
  const file = readMonitoringFile(text, process.env);
  const api = connection();
  process.stderr.write('Reading the organization…\n');
  const current = await api.read();
  const plan = planChanges(file, current, { prune, createOnly: false });
  return { api, plan };
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      file: { type: 'string', short: 'f' },
      output: { type: 'string', short: 'o' },
      prune: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? EXIT.ok : EXIT.error;
  }
  if (rest.length > 0) throw new UsageError(`unexpected ${rest.join(' ')}`);
  switch (command) {
    case 'schema':
      process.stdout.write(`${JSON.stringify(monitoringFileJsonSchema(), null, 2)}\n`);
      return EXIT.ok;
    case 'export': {
      const api = connection();
      const { file, notes } = fileFromExport(await api.read());
      for (const { label, note } of notes) process.stderr.write(`note: ${label}: ${note}\n`);
      const yaml = stringify({ $schema: api.schemaUrl(), ...file }, { lineWidth: 0 });
      if (values.output) await writeFile(values.output, yaml);
      else process.stdout.write(yaml);
      return EXIT.ok;
    }
    case 'plan': {
      const { plan } = await loadPlan(values.file, values.prune);
      process.stdout.write(`${planText(plan)}\n`);
      return plan.steps.length === 0 ? EXIT.ok : EXIT.changes;
    }
    case 'apply': {
      const { api, plan } = await loadPlan(values.file, values.prune);
      process.stdout.write(`${planText(plan)}\n`);
      if (plan.steps.length === 0) return EXIT.ok;
      process.stdout.write('\nApplying…\n');
      const outcomes = await applyPlan(plan, api, {
        stopOnFailure: true,
        onProgress: (done, total, outcome) => {
          process.stdout.write(`${outcomeLine(done, total, outcome)}\n`);
        },
      });
      const failed = outcomes.filter((outcome) => outcome.status !== 'done').length;
      const done = planCounts({
        ...plan,
        steps: outcomes.filter((o) => o.status === 'done').map((o) => o.step),
      });
      process.stdout.write(
        `\nApplied: ${done.create} created, ${done.change} changed, ${done.delete} deleted${
          failed > 0 ? `; stopped at a failure, ${plan.steps.length - outcomes.length + failed} not done` : ''
        }.\n`,
      );
      return failed > 0 ? EXIT.error : EXIT.ok;
    }
    default:
      throw new UsageError(`unknown command "${command}" (plan, apply, export, schema)`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof PlanProblems) {
      process.stderr.write(`The monitoring file has problems:\n${error.message.replace(/^/gm, '  ')}\n`);
    } else if (
      error instanceof UsageError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    } else {
      process.stderr.write(`webmon: ${errorMessage(error)}\n`);
    }
    process.exitCode = EXIT.error;
  },
);
