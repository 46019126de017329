import { z } from 'zod';
import { decimalId, patchBody, resourceId } from '../contract/index.js';
import { CUSTOMER_STATUSES } from './customer-status.js';

const customerStatus = z.enum(CUSTOMER_STATUSES).meta({ id: 'CustomerStatus' });

const email = z.email().max(254);
const name = z.string().trim().min(1).max(200);
const reportIntro = z
  .string()
  .trim()
  .max(500)
  .describe('The cover line of this customer’s reports (e.g. what the agency did this month)');

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
    packageId: resourceId(),
  })
  .meta({ id: 'CustomerCreate' });

export const patchCustomerBody = patchBody(
  z
    .strictObject({
      name,
      email: email.nullable(),
      notificationEmail: email.nullable(),
      reportIntro: reportIntro.nullable(),
      packageId: resourceId(),
      status: customerStatus,
      cancellationDate: z.iso
        .datetime({ offset: true })
        .nullable()
        .describe('With status marked_for_cancellation; defaults to the end of the current UTC month'),
    })
    .partial(),
).meta({ id: 'CustomerUpdate' });
