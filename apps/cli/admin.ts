/**
 * `npm run admin -- <command>`: the operator's tool for organizations, packages, API tokens, users
 * and the secrets key. Talks to MongoDB directly (MONGODB_URL, default the local embedded server);
 * prints one JSON line a result, progress on stderr.
 */

import { MongoClient } from 'mongodb';
import {
  ApiTokenRepository,
  apiTokenIndexes,
  OrganizationRepository,
  organizationIndexes,
} from '../../libs/auth/index.js';
import { type AppConfig, ConfigError, loadConfig } from '../../libs/config/index.js';
import { databaseNameOf, ensureIndexes, redactUrl } from '../../libs/db/index.js';
import { errorMessage } from '../../libs/errors/index.js';
import { packageIndexes } from '../../libs/packages/index.js';
import { invitationIndexes, userIndexes } from '../../libs/people/index.js';
import {
  type CommandLine,
  organizationId,
  parseCommandLine,
  parseWith,
  required,
  USAGE,
  UsageError,
  usageOf,
} from './admin/command-line.js';
import { COMMANDS } from './admin/commands.js';

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
  const handle = command !== undefined && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!handle) throw new UsageError(`unknown command ${command}`);
  await handle({ db, config, values, organizations, tokens, requireOrganization });
}

let exitCode = 0;
let client: MongoClient | undefined;
try {
  const commandLine = parseCommandLine(process.argv.slice(2), new Set(Object.keys(COMMANDS)));
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
  process.stderr.write(`admin: ${errorMessage(error)}\n`);
  if (usage) process.stderr.write(`\n${USAGE}\n`);
  exitCode = usage ? 2 : error instanceof ConfigError ? 78 : 1;
} finally {
  await client?.close();
}
process.exit(exitCode);
