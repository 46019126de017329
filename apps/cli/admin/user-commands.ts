import type { Db } from 'mongodb';
import { OrganizationRepository } from '../../../libs/auth/index.js';
import { validate } from '../../../libs/contract/index.js';
import { CustomerRepository } from '../../../libs/customers/index.js';
import { KeyTakenError } from '../../../libs/db/index.js';
import {
  generatePassword,
  hashPassword,
  newUser,
  normalizeEmail,
  passwordProblem,
  toUserView,
  UserRepository,
} from '../../../libs/people/index.js';
import { type CommandLine, organizationId, parseWith, print, required, UsageError } from './command-line.js';
import type { AdminCommand } from './context.js';

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

/**
 * The password read from standard input (one line) with --password-stdin, held to the API's policy
 * for this person (their e-mail, their organization's name), else a generated one to print.
 */
async function newPassword(
  db: Db,
  fromStdin: boolean | undefined,
  person: { email: string; organizationId: number },
): Promise<{ password: string; generated: boolean }> {
  if (!fromStdin) return { password: generatePassword(), generated: true };
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  const password = text.replace(/\r?\n$/, '');
  const organization = await new OrganizationRepository(db).findById(person.organizationId);
  const problem = passwordProblem(password, { email: person.email, organizationName: organization?.name });
  if (problem) throw new Error(`the password ${problem}`);
  return { password, generated: false };
}

/** Users: made by the operator, and a new password (which ends their sessions). */
export const userCommands: Record<string, AdminCommand> = {
  'create-user': async ({ db, values, requireOrganization }) => {
    const user = newUserFrom(values, await requireOrganization(values.org));
    if (
      user.customerId !== null &&
      !(await new CustomerRepository(db).findById(user.organizationId, user.customerId))
    )
      throw new Error(`no customer ${user.customerId} in organization ${user.organizationId}`);
    const { password, generated } = await newPassword(db, values['password-stdin'], user);
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
  },
  'reset-password': async ({ db, values }) => {
    const users = new UserRepository(db);
    const email = normalizeEmail(required(values.email, '--email'));
    const user = await users.findByEmail(email);
    if (!user) throw new Error(`no user with the e-mail ${email}`);
    const { password, generated } = await newPassword(db, values['password-stdin'], user);
    // Sessions begun before passwordChangedAt are over (checked on every request).
    await users.update(user, { passwordHash: await hashPassword(password), passwordChangedAt: new Date() });
    print({
      organizationId: user.organizationId,
      userId: user.id,
      email,
      sessionsEnded: true,
      ...(generated ? { password } : {}),
    });
  },
};
