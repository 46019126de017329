import type { z } from 'zod';
import { conflict, invalidInput } from '../errors/index.js';
import type { RedisMutex } from '../locks/index.js';
import type { WebsiteRepository } from '../websites/index.js';
import type { MaintenanceQueue } from './maintenance.queue.js';
import {
  MAX_WINDOWS_PER_WEBSITE,
  type MaintenanceWindowDocument,
  type MaintenanceWindowRepository,
} from './maintenance-window.repository.js';
import { type WindowInput, windowProblems, type windowView } from './maintenance-window.schema.js';
import { activeOccurrence } from './recurrence.js';

export function toWindowView(window: MaintenanceWindowDocument): z.input<typeof windowView> {
  const { recurrence } = window;
  return {
    id: window.id,
    websiteId: window.websiteId,
    title: window.title,
    startsAt: window.startsAt.toISOString(),
    endsAt: window.endsAt.toISOString(),
    timezone: window.timezone,
    recurrence: recurrence && {
      frequency: recurrence.frequency,
      interval: recurrence.interval,
      ...(recurrence.byWeekday ? { byWeekday: recurrence.byWeekday } : {}),
      ...(recurrence.until ? { until: recurrence.until.toISOString() } : {}),
    },
    createdAt: window.createdAt.toISOString(),
    updatedAt: window.updatedAt.toISOString(),
  };
}

/** The window of `windows` running at `at` with the latest end (when several overlap), with that occurrence. */
export function currentWindow(windows: readonly MaintenanceWindowDocument[], at: Date) {
  let best: { window: MaintenanceWindowDocument; startsAt: Date; endsAt: Date } | null = null;
  for (const window of windows) {
    const occurrence = activeOccurrence(window, at);
    if (occurrence && (!best || occurrence.endsAt > best.endsAt)) best = { window, ...occurrence };
  }
  return best;
}

export interface MaintenanceDependencies {
  windows: MaintenanceWindowRepository;
  websites: WebsiteRepository;
  mutex: RedisMutex;
  queue: MaintenanceQueue;
}

/** A new window of a website (within its bound), planned by the worker before this returns. */
export async function createMaintenanceWindow(
  deps: MaintenanceDependencies,
  organizationId: number,
  body: WindowInput,
): Promise<MaintenanceWindowDocument> {
  assertValidWindow(body);
  return deps.mutex.withLock(`maintenance:${body.websiteId}`, async () => {
    if (!(await deps.websites.findByRef(organizationId, { id: body.websiteId })))
      throw invalidInput(`Unknown website ${body.websiteId}`, [
        { path: 'websiteId', message: 'No such website in your organization' },
      ]);
    if ((await deps.windows.countByWebsite(organizationId, body.websiteId)) >= MAX_WINDOWS_PER_WEBSITE)
      throw conflict(
        `The website already has ${MAX_WINDOWS_PER_WEBSITE} maintenance windows; delete some first`,
      );
    const window = await deps.windows.create({ organizationId, ...body });
    // Before answering: the worker plans the boundary jobs (or starts the window now).
    await deps.queue.syncSoon(organizationId, body.websiteId);
    return window;
  });
}

/** Throws every problem of a window at once, as one invalid input. */
export function assertValidWindow(window: Parameters<typeof windowProblems>[0]): void {
  const problems = windowProblems(window);
  if (problems.length > 0)
    throw invalidInput(`Invalid maintenance window: ${problems.map((p) => p.path).join(', ')}`, problems);
}
