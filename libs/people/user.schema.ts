import { z } from 'zod';
import { nameText, resourceId } from '../contract/index.js';
import { MAX_PASSWORD_LENGTH } from './password-policy.js';
import { email, normalizeEmail, role } from './person.schema.js';
import { secondFactorCode, storedTwoFactor } from './two-factor.schema.js';

export const personName = nameText(100);

/** A user as stored (`_id` is `u<id>`); every read is parsed with it. */
export const storedUser = z.object({
  id: z.number().int().min(1),
  organizationId: z.number().int().min(1),
  email: z.string(),
  name: z.string(),
  role,
  /** Set for a `client` (the customer whose resources it sees), null for every other role. */
  customerId: z.number().int().min(1).nullable(),
  /** Empty for a person made by single sign-on or SCIM who never set a password: no password signs them in. */
  passwordHash: z.string(),
  /** Sessions begun before this are over (a password reset by the CLI, which has no Redis, ends them so). */
  passwordChangedAt: z.date(),
  createdAt: z.date(),
  lastSignInAt: z.date().nullable(),
  /** True once a TOTP enrolment is confirmed (`twoFactor.enabledAt` set). */
  twoFactorEnabled: z.boolean(),
  /** Absent until the user starts a TOTP enrolment. */
  twoFactor: storedTwoFactor.optional(),
  /** Set while the person is deactivated (SCIM `active: false`): no sign-in, and every session ends at its next request. */
  disabledAt: z.date().nullable().optional(),
  /** The identity providers' people this account is (the provider's id and its stable subject), once linked. */
  identities: z
    .array(z.object({ providerId: z.number().int().min(1), subject: z.string().min(1), linkedAt: z.date() }))
    .optional(),
});
export type User = z.infer<typeof storedUser>;

export const userView = z
  .object({
    id: z.number().int(),
    email: z.string(),
    name: z.string(),
    role,
    customerId: z.number().int().nullable().describe('The customer a `client` sees; null for other roles'),
    createdAt: z.iso.datetime(),
    lastSignInAt: z.iso.datetime().nullable(),
    twoFactorEnabled: z.boolean(),
    deactivatedAt: z.iso
      .datetime()
      .optional()
      .describe('Set while the person is deactivated (SCIM `active: false`): no sign-in; absent otherwise'),
    signsInWith: z
      .enum(['password', 'identity-provider'])
      .describe('`identity-provider` for a person made by single sign-on or SCIM, who has no password'),
  })
  .meta({ id: 'User' });
export type UserView = z.infer<typeof userView>;

export function toUserView(user: User): UserView {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    customerId: user.customerId,
    createdAt: user.createdAt.toISOString(),
    lastSignInAt: user.lastSignInAt?.toISOString() ?? null,
    twoFactorEnabled: user.twoFactorEnabled,
    ...(user.disabledAt ? { deactivatedAt: user.disabledAt.toISOString() } : {}),
    signsInWith: user.passwordHash === '' ? 'identity-provider' : 'password',
  };
}

export const signedInView = z.object({ user: userView }).meta({ id: 'SignedIn' });

export const loginBody = z
  .strictObject({
    // Not checked as an address: a malformed one answers what a wrong one does.
    email: z.string().max(254).transform(normalizeEmail),
    password: z.string().min(1).max(MAX_PASSWORD_LENGTH),
    totp: secondFactorCode
      .optional()
      .describe('Required once the user has two-factor sign-in on: a current code or a recovery code'),
  })
  .meta({ id: 'Login' });

export const updateUserBody = z
  .strictObject({
    name: personName.optional(),
    role: role.optional(),
    customerId: resourceId()
      .nullable()
      .optional()
      .describe('Required when the role is (or becomes) client; refused for other roles'),
  })
  .meta({ id: 'UserUpdate' });
export type UserUpdate = z.infer<typeof updateUserBody>;

/** A user to create: a client is bound to a customer, no other role is. */
export const newUser = z
  .object({
    organizationId: z.number().int().min(1),
    email,
    name: personName,
    role,
    customerId: z.number().int().min(1).nullable(),
  })
  .superRefine((user, ctx) => {
    if ((user.role === 'client') !== (user.customerId !== null))
      ctx.addIssue({
        code: 'custom',
        path: ['customerId'],
        message: user.role === 'client' ? 'Required for a client' : 'only for the role client',
      });
  });
export type NewUser = z.input<typeof newUser>;

export const sessionView = z
  .object({
    id: z.string().describe('A handle for the session (not the session id, which only its cookie holds)'),
    createdAt: z.iso.datetime(),
    lastSeenAt: z.iso.datetime(),
    address: z.string(),
    userAgent: z.string(),
    current: z.boolean().describe('The session this request came with'),
  })
  .meta({ id: 'Session' });
