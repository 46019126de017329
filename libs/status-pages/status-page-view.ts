import type { z } from 'zod';
import type { StatusPageDocument } from './status-page.repository.js';
import type { statusPageView } from './status-page.schema.js';

export function toStatusPageView(page: StatusPageDocument): z.input<typeof statusPageView> {
  return {
    ...page,
    embedAllowedOrigins: page.embedAllowedOrigins ?? [],
    createdAt: page.createdAt.toISOString(),
    updatedAt: page.updatedAt.toISOString(),
  };
}
