import type { z } from 'zod';
import { PUBLIC_ACCESS } from './access/access-decision.js';
import type { StatusPageDocument } from './status-page.repository.js';
import type { statusPageView } from './status-page.schema.js';

export function toStatusPageView(page: StatusPageDocument): z.input<typeof statusPageView> {
  const { access = PUBLIC_ACCESS, ...fields } = page;
  return {
    ...fields,
    // Write-only: whether a password is set, never its hash.
    access: { mode: access.mode, passwordSet: access.passwordHash !== null, cidrs: access.cidrs },
    embedAllowedOrigins: page.embedAllowedOrigins ?? [],
    maintenanceNoticeDays: page.maintenanceNoticeDays ?? 7,
    language: page.language ?? 'en',
    timezone: page.timezone ?? 'UTC',
    sections: (page.sections ?? []).map((s) => ({ name: s.name, websiteIds: [...s.websiteIds] })),
    createdAt: page.createdAt.toISOString(),
    updatedAt: page.updatedAt.toISOString(),
  };
}
