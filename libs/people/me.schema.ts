import { z } from 'zod';
import { tokenView } from '../auth/index.js';
import { userView } from './user.schema.js';

const organization = z
  .object({ id: z.number().int(), name: z.string() })
  .describe("The caller's organization (its id is the `organizationId` of its resources)");

const scopes = tokenView.shape.scopes.describe(
  "What the caller may do (each scope includes the ones before it): a person's from their role",
);

/**
 * `GET /api/me`: who calls, told apart by `kind`: a person signed in with the session cookie, or
 * an API token (identified by its id, name and prefix, never the token itself).
 */
export const meView = z
  .discriminatedUnion('kind', [
    z
      .object({ kind: z.literal('person'), user: userView, organization, scopes })
      .meta({ id: 'PersonCaller' }),
    z
      .object({
        kind: z.literal('token'),
        token: tokenView.pick({ id: true, name: true, prefix: true, customerId: true, userId: true }),
        organization,
        scopes,
      })
      .meta({ id: 'TokenCaller' }),
  ])
  .meta({ id: 'Me' });
