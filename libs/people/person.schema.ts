import { z } from 'zod';
import { emailAddress, ROLES } from '../contract/index.js';

/** A person's role and e-mail address, pure (zod and constants): the app's forms check them too. */

export const role = z.enum(ROLES).meta({ id: 'Role' });

/** E-mail addresses are unique whatever their case: stored and looked up trimmed and lowercased. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export const email = emailAddress()
  .transform(normalizeEmail)
  .describe('Unique across the service, whatever its case');
