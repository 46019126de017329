import { z } from 'zod';
import { decimalId, emailAddress, lineText, nameText, patchBody, resourceId } from '../contract/index.js';
import { CUSTOMER_STATUSES } from './customer-status.js';

const customerStatus = z.enum(CUSTOMER_STATUSES).meta({ id: 'CustomerStatus' });

const email = emailAddress();
const name = nameText(200);
export const REPORT_WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;

/** When a customer's report is e-mailed, to whom and as what. */
export const reportScheduleSchema = z
  .strictObject({
    frequency: z
      .enum(['monthly', 'weekly', 'off'])
      .describe('monthly: the last calendar month; weekly: the last ISO week (Monday to Sunday)'),
    recipients: z
      .array(emailAddress())
      .max(20)
      .default([])
      .describe('Empty: the customer’s notificationEmail'),
    format: z.enum(['pdf', 'html', 'both']).default('pdf').describe('What is attached'),
    dayOfMonth: z.number().int().min(1).max(28).default(1).describe('monthly: the day it is sent'),
    weekday: z.enum(REPORT_WEEKDAYS).default('MO').describe('weekly: the day it is sent'),
    hour: z
      .number()
      .int()
      .min(0)
      .max(23)
      .default(6)
      .describe('The hour it is sent, in the organization’s timezone'),
  })
  .meta({ id: 'ReportSchedule' });
export type ReportSchedule = z.output<typeof reportScheduleSchema>;

const reportIntro = lineText(500).describe(
  'The cover line of this customer’s reports (e.g. what the agency did this month)',
);

const escalationPolicyId = resourceId()
  .nullable()
  .describe(
    'The escalation policy its websites’ alerts follow unless a website has its own (null: the organization’s default)',
  );

/** A customer as the seed lists it: `notificationEmail` (and `email`) absent when unset, no raw package type. */
export const customerView = z
  .object({
    id: z.number().int(),
    organizationId: z.number().int(),
    name: z.string(),
    email: z.string().optional(),
    packageId: z.number().int(),
    packageDisplayName: z.string(),
    status: customerStatus,
    cancellationDate: z.iso.datetime().nullable(),
    notificationEmail: z.string().optional(),
    reportIntro: z.string().optional().describe('The cover line of its reports; absent when unset'),
    reportSchedule: reportScheduleSchema
      .optional()
      .describe('When its report is e-mailed; absent: never set'),
    escalationPolicyId: z
      .number()
      .int()
      .optional()
      .describe(
        'The escalation policy its websites’ alerts follow unless one has its own; absent when unset',
      ),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Customer' });

export const listCustomersQuery = z.strictObject({
  organizationId: decimalId().describe("Your organization's id (required)"),
});

export const automationCreateCustomerBody = z
  .strictObject({
    name,
    plan: z.string().min(1).max(40).describe('The package key (raw package type), e.g. "starter"'),
    email: email.optional(),
  })
  .meta({ id: 'AutomationCustomerCreate' });

export const automationCreatedCustomer = z
  .object({
    id: z.string().describe('The customer id, as a string'),
    status: customerStatus,
  })
  .meta({ id: 'AutomationCreatedCustomer' });

export const createCustomerBody = z
  .strictObject({
    name,
    email: email.optional(),
    notificationEmail: email.optional(),
    reportIntro: reportIntro.optional(),
    reportSchedule: reportScheduleSchema.optional(),
    packageId: resourceId(),
    escalationPolicyId: escalationPolicyId.optional(),
  })
  .meta({ id: 'CustomerCreate' });

export const patchCustomerBody = patchBody(
  z
    .strictObject({
      name,
      email: email.nullable(),
      notificationEmail: email.nullable(),
      reportIntro: reportIntro.nullable(),
      reportSchedule: reportScheduleSchema,
      packageId: resourceId(),
      escalationPolicyId,
      status: customerStatus,
      cancellationDate: z.iso
        .datetime({ offset: true })
        .nullable()
        .describe('With status marked_for_cancellation; defaults to the end of the current UTC month'),
    })
    .partial(),
).meta({ id: 'CustomerUpdate' });
