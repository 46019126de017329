import { parseArgs } from 'node:util';
import { z } from 'zod';

export const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-org --name NAME [--owner-email EMAIL]   a new organization, its package "standard" (every
                                                 feature, the default limits) and its first admin
                                                 token; with --owner-email also an owner invitation
                                                 (its link, valid 72 h, printed once; not mailed)
  create-token --org ID --scopes read,write,admin [--name NAME]
                                                 a new API token of the organization
  revoke-token --token-prefix PREFIX             revokes the token whose prefix (wm_ + 8) is given
  list-tokens [--org ID]                         tokens (never the secrets), one JSON line each
  create-package --org ID --key KEY --display-name NAME [--settings JSON]
                                                 a package; JSON: {"features":{…},"limits":{…},"alerting":{…}}
  list-packages --org ID                         the organization's packages, one JSON line each
  create-user --org ID --email EMAIL --name NAME --role ROLE [--customer ID] [--password-stdin]
                                                 a user (viewer, editor, admin, owner, or client of
                                                 --customer); prints a generated password once
                                                 unless --password-stdin reads one
  reset-password --email EMAIL [--password-stdin]
                                                 a new password (printed once, or read from stdin);
                                                 ends the user's sessions
  require-two-factor --org ID --roles owner,admin
                                                 the roles whose users must sign in with two-factor
                                                 (--roles '' for none); they enrol at their next sign-in
  reseal-secrets                                 seals every stored secret again under SECRETS_KEY
                                                 (after a key rotation; see docs/operations.md)

Environment: MONGODB_URL (default mongodb://127.0.0.1:27017/webmon); create-org also PUBLIC_URL
(the links' origin, default http://localhost:PORT); reseal-secrets also
SECRETS_KEY (default: the key npm start keeps in ./.data/secrets.key) and SECRETS_KEYS_PREVIOUS`;

/** A mistake in the command line: exit code 2, with the usage. */
export class UsageError extends Error {}

export const organizationId = z.coerce.number().int().positive();

export function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required`);
  return value;
}

export function parseWith<T>(schema: z.ZodType<T>, value: unknown, flag: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new UsageError(`${flag}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return parsed.data;
}

export const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

export function parseCommandLine(argv: string[], commands: ReadonlySet<string>) {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      org: { type: 'string' },
      scopes: { type: 'string' },
      'token-prefix': { type: 'string' },
      key: { type: 'string' },
      'display-name': { type: 'string' },
      settings: { type: 'string' },
      email: { type: 'string' },
      'owner-email': { type: 'string' },
      role: { type: 'string' },
      roles: { type: 'string' },
      customer: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = values.help ? 'help' : positionals[0];
  // `help <command>` and `<command> --help` ask about one command.
  const about = command === 'help' ? (values.help ? positionals[0] : positionals[1]) : undefined;
  for (const name of [command, about])
    if (name !== undefined && name !== 'help' && !commands.has(name))
      throw new UsageError(`unknown command ${name}`);
  const extra = positionals.slice(command === 'help' && !values.help ? 2 : 1);
  if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`);
  return { command, about, values };
}

/** USAGE's lines about one command (its line and those continuing it). */
export function usageOf(command: string): string {
  const lines = USAGE.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`  ${command} `) || line === `  ${command}`);
  const own = [lines[start]];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('      ')) break;
    own.push(line);
  }
  return `Usage: npm run admin -- ${own.join('\n').trim()}`;
}

export type CommandLine = ReturnType<typeof parseCommandLine>;
