import { z } from 'zod';
import { emailAddress, lineText, patchBody, uniqueArray } from '../contract/index.js';

/**
 * How a person is reached when they are paged: e-mail, a text message, a call, or a push through
 * one of the organization's channels (ntfy topic, Pushover user key, Telegram chat, Signal number).
 */
export const CONTACT_METHOD_TYPES = [
  'email',
  'sms',
  'voice',
  'ntfy',
  'pushover',
  'telegram',
  'signal',
] as const;
export type ContactMethodType = (typeof CONTACT_METHOD_TYPES)[number];

/** What a person is told of an alert they were paged for: the problem, its recovery, someone's acknowledgement. */
export const CONTACT_EVENTS = ['alert', 'recovery', 'acknowledged'] as const;
export type ContactEvent = (typeof CONTACT_EVENTS)[number];

const E164 = /^\+[1-9]\d{6,14}$/;

/** Each type's address, as its tool names a recipient. */
const ADDRESS_RULES: Record<ContactMethodType, { pattern: RegExp; says: string } | 'email'> = {
  email: 'email',
  sms: { pattern: E164, says: 'an E.164 number such as +4915112345678' },
  voice: { pattern: E164, says: 'an E.164 number such as +4915112345678' },
  signal: { pattern: E164, says: 'the E.164 number of a Signal account' },
  ntfy: { pattern: /^[A-Za-z0-9_-]{1,64}$/, says: 'an ntfy topic (letters, digits, - and _, at most 64)' },
  pushover: { pattern: /^[A-Za-z0-9]{30}$/, says: 'a Pushover user or group key (30 letters and digits)' },
  telegram: { pattern: /^-?\d{1,20}$/, says: 'a Telegram chat id (digits, a group’s starts with -)' },
};

/** Why `address` is no address of `type` (null: it is one). */
export function addressProblem(type: ContactMethodType, address: string): string | null {
  const rule = ADDRESS_RULES[type];
  if (rule === 'email') return emailAddress().safeParse(address).success ? null : 'must be an e-mail address';
  return rule.pattern.test(address) ? null : `must be ${rule.says}`;
}

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** When a method may be used: on these days, between these times in this zone (to before from: over midnight). */
export const contactHours = z
  .strictObject({
    timezone: z
      .string()
      .max(64)
      .refine((zone) => {
        try {
          new Intl.DateTimeFormat('en', { timeZone: zone });
          return true;
        } catch {
          return false;
        }
      }, 'must be an IANA time zone such as Europe/Berlin'),
    days: uniqueArray(z.number().int().min(1).max(7)).min(1).describe('ISO weekdays: 1 Monday … 7 Sunday'),
    from: z.string().regex(HH_MM, 'must be HH:MM'),
    to: z.string().regex(HH_MM, 'must be HH:MM').describe('Equal to `from`: the whole day'),
  })
  .meta({ id: 'ContactHours' });
export type ContactHours = z.output<typeof contactHours>;

const sharedFields = {
  label: lineText(100).nullable().optional(),
  hours: contactHours.nullable().optional().describe('null: at any hour'),
  events: uniqueArray(z.enum(CONTACT_EVENTS)).min(1).optional().describe('Default: all three'),
};

export const createContactMethodBody = z
  .strictObject({
    type: z.enum(CONTACT_METHOD_TYPES).meta({ id: 'ContactMethodType' }),
    address: z.string().trim().min(1).max(254),
    ...sharedFields,
  })
  .superRefine((body, ctx) => {
    const problem = addressProblem(body.type, body.address);
    if (problem) ctx.addIssue({ code: 'custom', path: ['address'], message: problem });
  })
  .meta({ id: 'ContactMethodCreate' });
export type CreateContactMethodInput = z.output<typeof createContactMethodBody>;

export const patchContactMethodBody = patchBody(z.strictObject(sharedFields)).meta({
  id: 'ContactMethodUpdate',
});
export type ContactMethodPatch = z.output<typeof patchContactMethodBody>;

export const verifyContactMethodBody = z
  .strictObject({ code: z.string().regex(/^\d{6}$/, 'must be the 6 digits sent to the address') })
  .meta({ id: 'ContactMethodVerify' });

/** A code sent to prove the address is the person's: only its digest is kept. */
export interface PendingCode {
  digest: string;
  salt: string;
  expiresAt: Date;
  /** Wrong guesses so far. */
  failures: number;
  sentAt: Date[];
}

export interface ContactMethodDocument {
  id: number;
  organizationId: number;
  userId: number;
  type: ContactMethodType;
  address: string;
  label: string | null;
  hours: ContactHours | null;
  events: ContactEvent[];
  verifiedAt: Date | null;
  code: PendingCode | null;
  createdAt: Date;
  updatedAt: Date;
}

export const contactMethodView = z
  .object({
    id: z.number().int(),
    userId: z.number().int(),
    type: z.enum(CONTACT_METHOD_TYPES),
    address: z.string(),
    label: z.string().nullable(),
    hours: contactHours.nullable(),
    events: z.array(z.enum(CONTACT_EVENTS)),
    verified: z.boolean(),
    verifiedAt: z.iso.datetime().nullable(),
    codeExpiresAt: z.iso.datetime().nullable().describe('While a code waits to be entered'),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'ContactMethod' });

export function toContactMethodView(method: ContactMethodDocument): z.input<typeof contactMethodView> {
  return {
    id: method.id,
    userId: method.userId,
    type: method.type,
    address: method.address,
    label: method.label,
    hours: method.hours,
    events: method.events,
    verified: method.verifiedAt !== null,
    verifiedAt: method.verifiedAt?.toISOString() ?? null,
    codeExpiresAt: method.code?.expiresAt.toISOString() ?? null,
    createdAt: method.createdAt.toISOString(),
  };
}
