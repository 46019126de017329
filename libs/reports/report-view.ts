import { z } from 'zod';
import { OTHER_MONITOR_KINDS } from '../events/index.js';
import type { ComputedReport, Figures, MonitorFigures } from './report-figures.js';
import { siteHealthView, toSiteHealthView } from './site-health-view.js';

const outages = {
  uptimePercent: z.number().nullable().describe('null: not monitored in the period'),
  slaUptimePercent: z.number().nullable().describe('Maintenance time left out'),
  monitoredSeconds: z.number().int(),
  downtimeSeconds: z.number().int(),
  maintenanceSeconds: z.number().int(),
  slaDowntimeSeconds: z.number().int().describe('Down time outside maintenance'),
  incidents: z.number().int(),
  longestIncidentSeconds: z.number().int(),
  mttrSeconds: z.number().int().nullable().describe('Mean time to recovery; null: none resolved'),
};

const figures = z
  .object({
    ...outages,
    checks: z.number().int(),
    responseTimeMs: z.object({ p50: z.number().nullable(), p95: z.number().nullable() }),
  })
  .meta({ id: 'ReportFigures' });

const monitorKind = z.enum(OTHER_MONITOR_KINDS);

/** Which of the website's other monitors an incident is of. */
const incidentMonitor = z
  .object({ id: z.number().int(), kind: monitorKind, name: z.string() })
  .meta({ id: 'ReportIncidentMonitor' });

const reportMonitor = z
  .object({
    id: z.number().int(),
    kind: monitorKind,
    name: z.string(),
    target: z.string().nullable().describe('The host it checks; null: none (a heartbeat: its job pings)'),
    figures: z
      .object(outages)
      .describe('From its own incidents, over the period since it was added')
      .meta({ id: 'ReportMonitorFigures' }),
    runs: z
      .object({
        runs: z.number().int().describe('Runs in the period, every region'),
        passedRuns: z.number().int().describe('Runs that passed every step'),
        successRatePercent: z.number().nullable().describe('null: no run in the period'),
        steps: z
          .array(
            z.object({
              step: z.number().int().describe('Its position, from 1'),
              name: z.string(),
              passedRuns: z.number().int().describe('Runs it passed in (its median is over these)'),
              medianMs: z.number().int().nullable().describe('null: it passed in no run'),
            }),
          )
          .describe('In order, as the latest run that reached each step named it'),
      })
      .optional()
      .describe(
        'A browser journey or API flow: its success rate and each step’s median time (other kinds: absent)',
      )
      .meta({ id: 'ReportJourneyRuns' }),
  })
  .meta({ id: 'ReportMonitor' });

export const clientReportView = z
  .object({
    organization: z.object({ name: z.string() }),
    customer: z.object({ id: z.number().int(), name: z.string() }),
    period: z.object({
      from: z.string().describe('First day, inclusive (yyyy-MM-dd)'),
      to: z.string().describe('Last day, inclusive'),
      timezone: z.string(),
      days: z.number().int(),
    }),
    previousPeriod: z.object({ from: z.string(), to: z.string() }),
    generatedAt: z.iso.datetime(),
    formulas: z.record(z.string(), z.string()).describe('How each figure is computed'),
    totals: figures.extend({
      previous: figures,
      change: z.object({
        uptimePercent: z.number().nullable(),
        slaUptimePercent: z.number().nullable(),
        incidents: z.number().int(),
        downtimeSeconds: z.number().int(),
      }),
    }),
    websites: z.array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        url: z.string(),
        figures,
        previous: figures,
        months: z.array(z.object({ month: z.string(), from: z.string(), to: z.string(), figures })),
        weeks: z.array(z.object({ week: z.string(), from: z.string(), to: z.string(), figures })),
        certificateExpiresAt: z.iso.datetime().nullable(),
        domainExpiresAt: z.iso.datetime().nullable(),
        monitors: z
          .array(reportMonitor)
          .describe(
            'Its other monitors (heartbeats, DNS, port, ping … checks, browser journeys, API flows), each with its own figures',
          ),
        incidents: z.array(
          z.object({
            id: z.string(),
            monitor: incidentMonitor
              .nullable()
              .describe('The other monitor the incident is of; null: the website’s HTTP check'),
            startedAt: z.iso.datetime(),
            resolvedAt: z.iso.datetime().nullable(),
            durationSeconds: z.number().int().describe('Until now while it is open'),
            cause: z.string(),
            regions: z.array(z.string()),
            publicNote: z.string().nullable(),
          }),
        ),
        maintenance: z.array(
          z.object({ title: z.string(), startsAt: z.iso.datetime(), endsAt: z.iso.datetime() }),
        ),
        siteHealth: siteHealthView,
      }),
    ),
  })
  .meta({ id: 'ClientReport' });
export type ClientReport = z.infer<typeof clientReportView>;

const copy = (f: Figures): Figures => ({ ...f, responseTimeMs: { ...f.responseTimeMs } });
const outagesCopy = (f: MonitorFigures): MonitorFigures => ({
  uptimePercent: f.uptimePercent,
  slaUptimePercent: f.slaUptimePercent,
  monitoredSeconds: f.monitoredSeconds,
  downtimeSeconds: f.downtimeSeconds,
  maintenanceSeconds: f.maintenanceSeconds,
  slaDowntimeSeconds: f.slaDowntimeSeconds,
  incidents: f.incidents,
  longestIncidentSeconds: f.longestIncidentSeconds,
  mttrSeconds: f.mttrSeconds,
});

/** A computed report as the API shows it (instants as ISO text). */
export function toClientReport(
  report: ComputedReport,
  context: { organizationName: string; customer: { id: number; name: string }; now: Date },
): ClientReport {
  const { previous, change, ...totals } = report.customer;
  return {
    organization: { name: context.organizationName },
    customer: context.customer,
    period: report.period,
    previousPeriod: report.previousPeriod,
    generatedAt: context.now.toISOString(),
    formulas: { ...report.formulas },
    totals: { ...copy(totals), previous: copy(previous), change },
    websites: report.websites.map((w) => ({
      id: w.site.id,
      name: w.site.name,
      url: w.site.url,
      figures: copy(w.figures),
      previous: copy(w.previous),
      months: w.parts
        .filter((p) => p.kind === 'month')
        .map((p) => ({ month: p.label, from: p.from, to: p.to, figures: copy(p.figures) })),
      weeks: w.parts
        .filter((p) => p.kind === 'week')
        .map((p) => ({ week: p.label, from: p.from, to: p.to, figures: copy(p.figures) })),
      certificateExpiresAt: w.site.certificateExpiresAt?.toISOString() ?? null,
      domainExpiresAt: w.site.domainExpiresAt?.toISOString() ?? null,
      // Kind, name and host only: never a monitor's settings (its secrets are among them).
      monitors: w.monitors.map(({ monitor, figures, journey }) => ({
        id: monitor.id,
        kind: monitor.kind,
        name: monitor.name,
        target: monitor.target,
        figures: outagesCopy(figures),
        // Counts and step names only: never a run's evidence or error.
        ...(journey && {
          runs: {
            runs: journey.runs,
            passedRuns: journey.passedRuns,
            successRatePercent: journey.successRatePercent,
            steps: journey.steps.map((step) => ({ ...step })),
          },
        }),
      })),
      incidents: w.incidents.map((i) => ({
        id: i.id,
        monitor: i.monitor && { id: i.monitor.id, kind: i.monitor.kind, name: i.monitor.name },
        startedAt: i.startedAt.toISOString(),
        resolvedAt: i.resolvedAt?.toISOString() ?? null,
        durationSeconds: Math.round(((i.resolvedAt ?? context.now).getTime() - i.startedAt.getTime()) / 1000),
        cause: i.cause,
        regions: i.regions,
        publicNote: i.publicNote,
      })),
      maintenance: w.maintenance.map((m) => ({
        title: m.title,
        startsAt: m.startsAt.toISOString(),
        endsAt: m.endsAt.toISOString(),
      })),
      // Absent, not empty, for a website without site crawls or Lighthouse checks.
      ...(w.siteHealth && { siteHealth: toSiteHealthView(w.siteHealth) }),
    })),
  };
}
