import { z } from 'zod';
import { lineText, nameText, patchBody, resourceId, uniqueArray } from '../contract/index.js';
import { isKnownTimezone } from '../maintenance/recurrence.js';

/** The organization's settings as a PATCH changes them, pure (zod and luxon): the app's form checks them too. */

const accentColor = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #1570ef')
  .nullable()
  .describe('Reports’ headings and charts; null: the default blue');
const footerText = lineText(300).nullable().describe('The last line of every report');

export const patchOrganizationBody = patchBody(
  z.strictObject({
    name: nameText(200).optional(),
    timezone: z
      .string()
      .refine(isKnownTimezone, 'must be an IANA time zone such as Europe/Berlin')
      .optional(),
    branding: z
      .strictObject({ accentColor: accentColor.optional(), footerText: footerText.optional() })
      .optional(),
    escalationPolicyId: resourceId()
      .nullable()
      .optional()
      .describe('The default escalation policy: for websites whose own and whose customer’s name none'),
    requireSso: z
      .boolean()
      .optional()
      .describe(
        'People sign in with an identity provider: password sign-ins are refused (403) but the break-glass owners’',
      ),
    breakGlassUserIds: uniqueArray(resourceId())
      .max(10)
      .optional()
      .describe(
        'Owners who may still sign in with their password while SSO is required (if the provider fails)',
      ),
  }),
).meta({ id: 'OrganizationUpdate' });
