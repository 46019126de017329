// How a monitor of any kind is shown, with where it stands, and the id params the monitor routes share.
import { z } from 'zod';
import { type AuthContext, decimalId, hasScope } from '../../../libs/contract/index.js';
import type { MonitorDocument, MonitorService } from '../../../libs/monitors/index.js';
import {
  dnsCheckView,
  expectedAfter,
  heartbeatAt,
  heartbeatView,
  portCheckView,
  probeCheckViews,
  shownSettings,
} from '../../../libs/monitors/index.js';
import type { WebsiteDocument } from '../../../libs/websites/index.js';

const iso = (at: Date | null) => at?.toISOString() ?? null;

export const idParams = z.object({ id: decimalId() });

export const monitorView = z
  .discriminatedUnion('kind', [heartbeatView, dnsCheckView, portCheckView, ...Object.values(probeCheckViews)])
  .meta({ id: 'Monitor' });

/** Editors (write scope, not a client) see a heartbeat's ping URL; others see null. */
const seesPingUrl = (auth: AuthContext) => hasScope(auth.scopes, 'write') && auth.customerId === undefined;

/** The views of monitors the monitor routes answer with, as the service tells where each stands. */
export function monitorViews(service: MonitorService) {
  /** Views of monitors of one website (read already, or read here), with where each stands. */
  const viewsOf = async (auth: AuthContext, monitors: MonitorDocument[], known?: WebsiteDocument) => {
    const [first] = monitors;
    if (!first) return [];
    const website = known ?? (await service.websiteOf(auth.organizationId, first.websiteId));
    const standings = await service.standings(website, monitors);
    const now = new Date();
    return monitors.map((monitor) => {
      const standing = standings.get(monitor.id);
      const common = {
        id: monitor.id,
        websiteId: monitor.websiteId,
        name: monitor.name,
        status: standing?.status ?? 'unknown',
        since: iso(standing?.since ?? null),
        lastCause: standing?.state.lastCause ?? null,
        openIncidentId: standing?.state.openIncidentId ?? null,
        createdAt: monitor.createdAt.toISOString(),
        updatedAt: monitor.updatedAt.toISOString(),
      };
      if (monitor.kind === 'heartbeat')
        return {
          ...common,
          kind: 'heartbeat' as const,
          schedule: monitor.schedule,
          graceSeconds: monitor.graceSeconds,
          maxRunSeconds: monitor.maxRunSeconds,
          pingUrl: seesPingUrl(auth) ? service.pingUrlOf(monitor) : null,
          lastSuccessAt: iso(monitor.lastSuccessAt),
          lastStartAt: iso(monitor.lastStartAt),
          lastFailureAt: iso(monitor.lastFailureAt),
          nextExpectedAt: expectedAfter(
            monitor.schedule,
            monitor.lastSuccessAt && monitor.lastSuccessAt > now ? monitor.lastSuccessAt : now,
            5,
          ).map((at) => at.toISOString()),
          deadlineAt: heartbeatAt(monitor, now).deadline.toISOString(),
        };
      if (monitor.kind === 'dns')
        return {
          ...common,
          kind: 'dns' as const,
          recordType: monitor.recordType,
          host: monitor.host,
          expected: monitor.expected,
          learned: monitor.learned && {
            values: monitor.learned.values,
            at: monitor.learned.at.toISOString(),
          },
          pendingChange: monitor.pendingChange && {
            ...monitor.pendingChange,
            since: monitor.pendingChange.since.toISOString(),
          },
          intervalSeconds: monitor.intervalSeconds,
          timeoutSeconds: monitor.timeoutSeconds,
          relearnAfterSeconds: monitor.relearnAfterSeconds,
        };
      if (monitor.kind !== 'port')
        return {
          ...common,
          ...shownSettings(monitor.settings, monitor.sealed ?? []),
          kind: monitor.kind,
          intervalSeconds: monitor.intervalSeconds,
          timeoutSeconds: monitor.timeoutSeconds,
        };
      return {
        ...common,
        kind: 'port' as const,
        host: monitor.host,
        port: monitor.port,
        tls: monitor.tls,
        expectBanner: monitor.expectBanner,
        intervalSeconds: monitor.intervalSeconds,
        timeoutSeconds: monitor.timeoutSeconds,
      };
    });
  };
  const viewOf = async (auth: AuthContext, monitor: MonitorDocument) => (await viewsOf(auth, [monitor]))[0];
  return { viewsOf, viewOf };
}

/** One monitor's view (as `monitorViews` makes it). */
export type MonitorViewOf = ReturnType<typeof monitorViews>['viewOf'];
