import type { AdminCommand } from './context.js';
import { organizationCommands } from './organization-commands.js';
import { packageCommands } from './package-commands.js';
import { secretCommands } from './secret-commands.js';
import { tokenCommands } from './token-commands.js';
import { userCommands } from './user-commands.js';

/** Every command of `npm run admin`, by name, in the order USAGE lists them. */
export const COMMANDS: Readonly<Record<string, AdminCommand>> = {
  ...organizationCommands,
  ...tokenCommands,
  ...packageCommands,
  ...userCommands,
  ...secretCommands,
};
