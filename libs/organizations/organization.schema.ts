import { z } from 'zod';
import { lineText, nameText, patchBody, resourceId } from '../contract/index.js';
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
  }),
).meta({ id: 'OrganizationUpdate' });
