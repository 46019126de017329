/**
 * `npm run admin -- <command>`: the operator's tool for organizations, packages, API tokens, users
 * and the secrets key. Talks to MongoDB directly (MONGODB_URL, default the local embedded server);
 * prints one JSON line a result, progress on stderr.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { z } from 'zod';
import {
  ApiTokenRepository,
  apiTokenIndexes,
  OrganizationRepository,
  organizationIndexes,
  scopeList,
  toTokenView,
} from '../../libs/auth/index.js';
import {
  type AppConfig,
  ConfigError,
  decodeSecretsKey,
  loadConfig,
  requireSecretsKey,
} from '../../libs/config/index.js';
import { ROLES, validate } from '../../libs/contract/index.js';
import { CustomerRepository } from '../../libs/customers/index.js';
import { databaseNameOf, ensureIndexes, KeyTakenError, redactUrl } from '../../libs/db/index.js';
import { readStoredSecretsKey } from '../../libs/embedded/index.js';
import { ChannelRepository } from '../../libs/notifications/index.js';
import {
  createPackageBody,
  PackageRepository,
  packageIndexes,
  toPackageView,
} from '../../libs/packages/index.js';
import {
  generatePassword,
  hashPassword,
  InvitationRepository,
  invitationIndexes,
  linkWithToken,
  newUser,
  normalizeEmail,
  passwordProblem,
  TwoFactorRepository,
  toUserView,
  UserRepository,
  userIndexes,
} from '../../libs/people/index.js';
import { type ResealReport, SecretBox } from '../../libs/secrets/index.js';
import { WebsiteRepository } from '../../libs/websites/index.js';

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-org --name NAME [--owner-email EMAIL]   a new organization and its first admin token; with
                                                 --owner-email also an owner invitation (its link,
                                                 valid 72 h, printed once; nothing is mailed)
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

class UsageError extends Error {}

const organizationId = z.coerce.number().int().positive();

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required`);
  return value;
}

function parseWith<T>(schema: z.ZodType<T>, value: unknown, flag: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new UsageError(`${flag}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return parsed.data;
}

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

const COMMANDS = new Set([
  'create-org',
  'create-token',
  'revoke-token',
  'list-tokens',
  'create-package',
  'list-packages',
  'create-user',
  'reset-password',
  'require-two-factor',
  'reseal-secrets',
]);

function parseCommandLine(argv: string[]) {
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
    if (name !== undefined && name !== 'help' && !COMMANDS.has(name))
      throw new UsageError(`unknown command ${name}`);
  const extra = positionals.slice(command === 'help' && !values.help ? 2 : 1);
  if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`);
  return { command, about, values };
}

/** USAGE's lines about one command (its line and those continuing it). */
function usageOf(command: string): string {
  const lines = USAGE.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`  ${command} `) || line === `  ${command}`);
  const own = [lines[start]];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('      ')) break;
    own.push(line);
  }
  return `Usage: npm run admin -- ${own.join('\n').trim()}`;
}

type CommandLine = ReturnType<typeof parseCommandLine>;

/** The package body from the flags, validated like `POST /api/packages`. */
function packageBodyFrom(values: CommandLine['values']) {
  let settings: Record<string, unknown> = {};
  if (values.settings !== undefined) {
    let parsedJson: unknown;
    try {
      parsedJson = JSON.parse(values.settings);
    } catch {
      throw new UsageError('--settings: is not valid JSON');
    }
    if (typeof parsedJson !== 'object' || parsedJson === null || Array.isArray(parsedJson))
      throw new UsageError('--settings: must be a JSON object');
    settings = parsedJson as Record<string, unknown>;
    if ('key' in settings || 'displayName' in settings)
      throw new UsageError('--settings: give key and displayName with --key and --display-name');
  }
  const parsed = validate(createPackageBody, {
    ...settings,
    key: required(values.key, '--key'),
    displayName: required(values['display-name'], '--display-name'),
  });
  if (!parsed.success)
    throw new UsageError(
      parsed.errors
        .map(({ path, message }) => `${path === 'displayName' ? 'display-name' : path}: ${message}`)
        .join('; '),
    );
  return parsed.data;
}

/** The user from the flags, validated like the API's users (a client needs --customer, no one else may have it). */
function newUserFrom(values: CommandLine['values'], organization: number) {
  const customer =
    values.customer === undefined ? null : parseWith(organizationId, values.customer, '--customer');
  const parsed = validate(newUser, {
    organizationId: organization,
    email: required(values.email, '--email'),
    name: required(values.name, '--name'),
    role: required(values.role, '--role'),
    customerId: customer,
  });
  if (!parsed.success)
    throw new UsageError(
      parsed.errors
        .map(({ path, message }) => `--${path === 'customerId' ? 'customer' : path}: ${message}`)
        .join('; '),
    );
  return parsed.data;
}

/** The password read from standard input (one line) with --password-stdin, else a generated one to print. */
async function newPassword(
  fromStdin: boolean | undefined,
): Promise<{ password: string; generated: boolean }> {
  if (!fromStdin) return { password: generatePassword(), generated: true };
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  const password = text.replace(/\r?\n$/, '');
  const problem = passwordProblem(password);
  if (problem) throw new Error(`the password ${problem}`);
  return { password, generated: false };
}

/** SECRETS_KEY, or the key `npm start` keeps in its data directory. */
function secretBoxFor(config: AppConfig): SecretBox {
  const stored = config.SECRETS_KEY
    ? undefined
    : readStoredSecretsKey(resolve(process.env.DATA_DIR || '.data'));
  const key = (stored && decodeSecretsKey(stored)) || requireSecretsKey(config);
  return new SecretBox(key, config.SECRETS_KEYS_PREVIOUS);
}

const progress = (what: string) => (report: ResealReport) =>
  process.stderr.write(`${what}: ${report.documents} checked, ${report.resealed} resealed…\n`);

async function run({ command, values }: CommandLine, client: MongoClient, config: AppConfig): Promise<void> {
  const db = client.db(databaseNameOf(config.MONGODB_URL));
  await ensureIndexes(db, [
    organizationIndexes,
    apiTokenIndexes,
    packageIndexes,
    userIndexes,
    invitationIndexes,
  ]);
  const organizations = new OrganizationRepository(db);
  const tokens = new ApiTokenRepository(db);
  const requireOrganization = async (raw: string | undefined) => {
    const id = parseWith(organizationId, required(raw, '--org'), '--org');
    if (!(await organizations.findById(id))) throw new Error(`no organization ${id}`);
    return id;
  };

  switch (command) {
    case 'create-org': {
      const name = parseWith(z.string().trim().min(1).max(200), required(values.name, '--name'), '--name');
      const ownerEmail =
        values['owner-email'] === undefined
          ? undefined
          : normalizeEmail(parseWith(z.email(), values['owner-email'], '--owner-email'));
      if (ownerEmail && (await new UserRepository(db).findByEmail(ownerEmail)))
        throw new Error(`${ownerEmail} has an account already`);
      const organization = await organizations.create(name);
      const { token } = await tokens.create({
        organizationId: organization.id,
        name: 'bootstrap admin',
        scopes: ['admin'],
      });
      if (!ownerEmail) {
        print({ organizationId: organization.id, token });
        return;
      }
      const owner = await new InvitationRepository(db).create({
        organizationId: organization.id,
        email: ownerEmail,
        role: 'owner',
        customerId: null,
      });
      print({
        organizationId: organization.id,
        token,
        ownerInvitation: {
          id: owner.invitation.id,
          email: ownerEmail,
          expiresAt: owner.invitation.expiresAt.toISOString(),
          link: linkWithToken(config, 'accept-invitation', owner.token),
        },
      });
      return;
    }
    case 'create-token': {
      const id = await requireOrganization(values.org);
      const scopes = parseWith(scopeList, required(values.scopes, '--scopes').split(','), '--scopes');
      const name = parseWith(z.string().trim().min(1).max(100), values.name ?? 'cli', '--name');
      const { record, token } = await tokens.create({ organizationId: id, name, scopes });
      print({ organizationId: id, tokenId: record.id, scopes, token });
      return;
    }
    case 'revoke-token': {
      const prefix = required(values['token-prefix'], '--token-prefix');
      if (!/^wm_[A-Za-z0-9_-]{8}$/.test(prefix))
        throw new UsageError(
          '--token-prefix: give the 11-character prefix shown by list-tokens (wm_ and 8 more)',
        );
      const matches = (await tokens.findByPrefix(prefix)).filter((t) => t.revokedAt === null);
      if (matches.length === 0) throw new Error(`no active token with prefix ${prefix}`);
      if (matches.length > 1)
        throw new Error(`${matches.length} active tokens share prefix ${prefix}; revoke by id over the API`);
      const token = matches[0]!;
      await tokens.revoke(token.organizationId, token.id);
      print({ revoked: true, organizationId: token.organizationId, tokenId: token.id, prefix });
      return;
    }
    case 'list-tokens': {
      const list = values.org
        ? await tokens.list(await requireOrganization(values.org))
        : await tokens.listAll();
      for (const token of list) print({ organizationId: token.organizationId, ...toTokenView(token) });
      return;
    }
    case 'create-package': {
      const id = await requireOrganization(values.org);
      const body = packageBodyFrom(values);
      const packages = new PackageRepository(db);
      if (await packages.findByKey(id, body.key))
        throw new Error(`organization ${id} already has a package with key "${body.key}"`);
      print(toPackageView(await packages.create({ organizationId: id, ...body })));
      return;
    }
    case 'list-packages': {
      const id = await requireOrganization(values.org);
      for (const found of await new PackageRepository(db).list(id)) print(toPackageView(found));
      return;
    }
    case 'create-user': {
      const user = newUserFrom(values, await requireOrganization(values.org));
      if (
        user.customerId !== null &&
        !(await new CustomerRepository(db).findById(user.organizationId, user.customerId))
      )
        throw new Error(`no customer ${user.customerId} in organization ${user.organizationId}`);
      const { password, generated } = await newPassword(values['password-stdin']);
      const created = await new UserRepository(db)
        .create(user, await hashPassword(password))
        .catch((error: unknown) => {
          throw error instanceof KeyTakenError
            ? new Error(`a user with the e-mail ${user.email} exists`)
            : error;
        });
      print({
        organizationId: created.organizationId,
        ...toUserView(created),
        ...(generated ? { password } : {}),
      });
      return;
    }
    case 'reset-password': {
      const users = new UserRepository(db);
      const email = normalizeEmail(required(values.email, '--email'));
      const user = await users.findByEmail(email);
      if (!user) throw new Error(`no user with the e-mail ${email}`);
      const { password, generated } = await newPassword(values['password-stdin']);
      // Sessions begun before passwordChangedAt are over (checked on every request).
      await users.update(user, { passwordHash: await hashPassword(password), passwordChangedAt: new Date() });
      print({
        organizationId: user.organizationId,
        userId: user.id,
        email,
        sessionsEnded: true,
        ...(generated ? { password } : {}),
      });
      return;
    }
    case 'require-two-factor': {
      const id = await requireOrganization(values.org);
      const listed = (values.roles ?? required(values.roles, '--roles')).split(',').filter(Boolean);
      const roles = parseWith(z.array(z.enum(ROLES)), listed, '--roles');
      await organizations.setTwoFactorRequiredFor(id, roles);
      print({ organizationId: id, requireTwoFactorFor: roles });
      return;
    }
    case 'reseal-secrets': {
      const box = secretBoxFor(config);
      const websites = await new WebsiteRepository(db).resealSecrets(box, progress('websites'));
      const channels = await new ChannelRepository(db).resealSecrets(box, progress('notification channels'));
      const totpSecrets = await new TwoFactorRepository(db).resealSecrets(
        box,
        progress('two-factor secrets'),
      );
      print({ websites, notificationChannels: channels, twoFactorSecrets: totpSecrets });
      const unreadable = websites.unreadable + channels.unreadable + totpSecrets.unreadable;
      if (unreadable > 0)
        throw new Error(
          `${unreadable} secret(s) could not be opened with SECRETS_KEY or SECRETS_KEYS_PREVIOUS; add the key that sealed them to SECRETS_KEYS_PREVIOUS and run again`,
        );
      return;
    }
    default:
      throw new UsageError(`unknown command ${command}`);
  }
}

let exitCode = 0;
let client: MongoClient | undefined;
try {
  const commandLine = parseCommandLine(process.argv.slice(2));
  if (commandLine.command === undefined || commandLine.command === 'help') {
    process.stdout.write(`${commandLine.about ? usageOf(commandLine.about) : USAGE}\n`);
    process.exit(0);
  }
  const config = loadConfig();
  client = new MongoClient(config.MONGODB_URL, { serverSelectionTimeoutMS: 5000, appName: 'webmon-admin' });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `cannot reach MongoDB at ${redactUrl(config.MONGODB_URL)} (${error instanceof Error ? error.message : error}); is \`npm start\` running, or MONGODB_URL set?`,
    );
  }
  await run(commandLine, client, config);
} catch (error) {
  const usage =
    error instanceof UsageError ||
    (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'));
  process.stderr.write(`admin: ${error instanceof Error ? error.message : String(error)}\n`);
  if (usage) process.stderr.write(`\n${USAGE}\n`);
  exitCode = usage ? 2 : error instanceof ConfigError ? 78 : 1;
} finally {
  await client?.close();
}
process.exit(exitCode);
