import { z } from 'zod';
import { ROLES } from '../../../libs/contract/index.js';
import { createOrganization } from '../../../libs/organizations/index.js';
import { PackageRepository } from '../../../libs/packages/index.js';
import {
  InvitationRepository,
  linkWithToken,
  normalizeEmail,
  UserRepository,
} from '../../../libs/people/index.js';
import { parseWith, print, required } from './command-line.js';
import type { AdminCommand } from './context.js';

/**
 * Organizations: making one (with its default package, first admin token and owner invitation) and
 * its two-factor policy.
 */
export const organizationCommands: Record<string, AdminCommand> = {
  'create-org': async ({ db, config, values, organizations, tokens }) => {
    const name = parseWith(z.string().trim().min(1).max(200), required(values.name, '--name'), '--name');
    const ownerEmail =
      values['owner-email'] === undefined
        ? undefined
        : normalizeEmail(parseWith(z.email(), values['owner-email'], '--owner-email'));
    if (ownerEmail && (await new UserRepository(db).findByEmail(ownerEmail)))
      throw new Error(`${ownerEmail} has an account already`);
    const organization = await createOrganization(
      { organizations, packages: new PackageRepository(db) },
      name,
    );
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
  },
  'require-two-factor': async ({ values, organizations, requireOrganization }) => {
    const id = await requireOrganization(values.org);
    const listed = (values.roles ?? required(values.roles, '--roles')).split(',').filter(Boolean);
    const roles = parseWith(z.array(z.enum(ROLES)), listed, '--roles');
    await organizations.setTwoFactorRequiredFor(id, roles);
    print({ organizationId: id, requireTwoFactorFor: roles });
  },
};
