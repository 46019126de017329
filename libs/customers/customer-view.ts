import type { z } from 'zod';
import type { CustomerDocument } from './customer.repository.js';
import type { customerView } from './customer.schema.js';

export function toCustomerView(
  customer: CustomerDocument,
  packageDisplayName: string,
): z.input<typeof customerView> {
  return {
    id: customer.id,
    organizationId: customer.organizationId,
    name: customer.name,
    ...(customer.email ? { email: customer.email } : {}),
    packageId: customer.packageId,
    packageDisplayName,
    status: customer.status,
    cancellationDate: customer.cancellationDate?.toISOString() ?? null,
    ...(customer.notificationEmail ? { notificationEmail: customer.notificationEmail } : {}),
    ...(customer.reportIntro ? { reportIntro: customer.reportIntro } : {}),
    ...(customer.reportSchedule ? { reportSchedule: customer.reportSchedule } : {}),
    ...(customer.escalationPolicyId ? { escalationPolicyId: customer.escalationPolicyId } : {}),
    createdAt: customer.createdAt.toISOString(),
  };
}
