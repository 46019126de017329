import { z } from 'zod';
import { nameText } from '../contract/index.js';

/** What every monitor's view says of where it stands (its monitor state, as the API reports it). */
export const MONITOR_STATUSES = ['unknown', 'up', 'down', 'maintenance', 'paused'] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

export const monitorStatusFields = {
  status: z
    .enum(MONITOR_STATUSES)
    .describe('paused while its website is paused or its customer is not monitored'),
  since: z.iso.datetime().nullable().describe('When that status began, where known'),
  lastCause: z.string().nullable().describe('What the last failure said'),
  openIncidentId: z.string().nullable(),
};

/** A monitor's name as people give it: trimmed, one line. */
export const monitorName = nameText(200);

/**
 * A host name or IP literal a check asks about (default: the website's host): letters, digits,
 * dots, dashes, underscores (DNS labels such as `_dmarc`), or an IPv6 literal.
 */
export const hostField = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(253)
  .regex(
    /^([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.?$|^[0-9a-f:.]+$/,
    'must be a host name such as example.org (no scheme, port or path)',
  );

/** How often a DNS or port check runs, and how long one may take. */
export const intervalField = z
  .number()
  .int()
  .min(10)
  .max(86_400)
  .describe('Seconds between checks (at least the package minimum)');
export const timeoutField = z.number().int().min(1).max(60).describe('Seconds one check may take');
