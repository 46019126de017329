import { z } from 'zod';
import { summarize } from '../connectors/index.js';
import type { EventPayload } from '../events/index.js';

/**
 * The websites a grouped message lists (issue 45's grouping fills `data.group`). Read leniently
 * here until the event schema declares it: anything else there is ignored.
 */
const groupSchema = z
  .array(
    z.object({
      name: z.string(),
      url: z.string(),
      status: z.string().nullable().catch(null),
      reason: z.string().nullable().catch(null),
    }),
  )
  .max(1000);
export type GroupedWebsite = z.infer<typeof groupSchema>[number];

const groupOf = (data: EventPayload['data']): GroupedWebsite[] | null => {
  const parsed = groupSchema.safeParse((data as { group?: unknown }).group);
  return parsed.success && parsed.data.length > 0 ? parsed.data : null;
};

/**
 * What a template sees of an event: the variables of TEMPLATE_VARIABLES, plain JSON data (no
 * functions, no prototypes worth walking), null where the event kind has none.
 */
export function templateScope(payload: EventPayload): Record<string, unknown> {
  const { data } = payload;
  const summary = summarize(payload);
  const website = data.website;
  return {
    event: { type: payload.type, id: payload.id, createdAt: payload.createdAt },
    website: website && {
      id: website.id,
      publicId: website.publicId,
      name: website.name,
      url: website.url,
    },
    customer: website && { id: website.customerId },
    status: data.status,
    previousStatus: data.previousStatus,
    incident: data.incident && { id: data.incident, link: summary.link },
    summary: {
      title: summary.title,
      reason: summary.reason,
      excerpt: summary.excerpt,
      severity: summary.severity,
      recovery: summary.recovery,
      screenshot: summary.screenshot,
    },
    reminder: data.reminder === true,
    escalation: data.escalation ? { policy: data.escalation.policy, step: data.escalation.step } : null,
    monitor: data.monitor
      ? { kind: data.monitor.kind, name: data.monitor.name, id: data.monitor.monitorId }
      : null,
    result: data.result && {
      region: data.result.region,
      httpStatus: data.result.httpStatus,
      error: data.result.error,
      checks: data.result.checks.map(({ name, outcome, message }) => ({ name, outcome, message })),
    },
    ssl: data.ssl ?? null,
    maintenance: data.maintenance
      ? {
          title: data.maintenance.title,
          startsAt: data.maintenance.startsAt,
          endsAt: data.maintenance.endsAt,
        }
      : null,
    dns: data.dnsChange ?? null,
    acknowledgement: data.acknowledgement
      ? { by: data.acknowledgement.by.name, note: data.acknowledgement.note, at: data.acknowledgement.at }
      : null,
    siteHealth: data.siteHealth
      ? {
          brokenLinkCount: data.siteHealth.brokenLinkCount,
          mixedContentCount: data.siteHealth.mixedContentCount,
          fixedCount: data.siteHealth.fixedCount,
        }
      : null,
    group: groupOf(data),
  };
}
