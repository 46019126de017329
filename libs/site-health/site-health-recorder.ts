import type { SiteHealthNews } from '../events/index.js';
import type { LighthouseThresholds } from '../lighthouse/index.js';
import type { LighthouseHistory, LighthouseRunRecord } from './lighthouse-history.repository.js';
import { judgeLighthouseRuns } from './lighthouse-news.js';
import { compareFindings, crawlNews } from './site-findings.js';
import type { FindingOwner, SiteFindings } from './site-findings.repository.js';
import type { SiteHealthSummaries } from './site-health-summaries.js';
import type { SiteRun } from './site-run.js';

const DAY_MS = 86_400_000;

/** A page and preset's report among the check's files: by its run's place in the check (from 1). */
export const lighthouseReportName = (index: number) => `run-${index + 1}`;

/**
 * Keeps what a site-health run found and answers what is news: a crawl's findings compared with
 * those open before (written: opened, still open, fixed), a Lighthouse check's runs judged against
 * their thresholds and the last scored run (kept as history). Null: nothing new to tell.
 */
export class SiteHealthRecorder {
  constructor(
    private readonly stores: {
      findings: SiteFindings;
      lighthouse: LighthouseHistory;
      summaries: SiteHealthSummaries;
    },
  ) {}

  async record(
    owner: FindingOwner,
    run: SiteRun,
    options: { at: Date; retentionDays: number; thresholds?: LighthouseThresholds | undefined },
  ): Promise<SiteHealthNews | null> {
    let news: SiteHealthNews | null = null;
    if (run.crawl) {
      const comparison = compareFindings(await this.stores.findings.open(owner), run.crawl, options.at);
      await this.stores.findings.apply(owner, comparison, {
        runId: run.runId,
        at: options.at,
        retentionDays: options.retentionDays,
      });
      news = crawlNews(run.runId, comparison);
      const open = [...comparison.opened, ...comparison.stillOpen, ...comparison.untouched];
      const counted = (type: string, category?: string) =>
        open.filter((f) => f.type === type && (!category || ('category' in f && f.category === category)))
          .length;
      await this.stores.summaries.write({
        ...owner,
        kind: 'crawl',
        crawl: {
          at: options.at.toISOString(),
          outcome: run.crawl.result.report.outcome,
          pagesCrawled: run.crawl.result.report.pages.length,
          brokenLinks: counted('broken-link'),
          mixedContent: counted('mixed-content'),
          activeMixedContent: counted('mixed-content', 'active'),
          sitemapErrors: counted('sitemap'),
        },
        lighthouse: null,
      });
    }
    if (run.lighthouse) {
      const last = await this.stores.lighthouse.lastScored(owner);
      const { judged, news: degraded } = judgeLighthouseRuns(
        run.lighthouse.map((entry) => ({ url: entry.url, preset: entry.preset, figures: entry.figures })),
        (url, preset) => last.find((record) => record.url === url && record.preset === preset) ?? null,
        options.thresholds ?? {},
      );
      const retainUntil = new Date(options.at.getTime() + options.retentionDays * DAY_MS);
      const records: LighthouseRunRecord[] = run.lighthouse.map((entry, index) => ({
        ...owner,
        _id: `${run.runId} ${index}`,
        runId: run.runId,
        at: options.at,
        url: entry.url,
        preset: entry.preset,
        outcome: entry.outcome,
        error: entry.error,
        figures: entry.figures,
        breaches: judged[index]?.breaches ?? null,
        report: entry.reportKept ? lighthouseReportName(index) : null,
        reportNote: entry.reportNote,
        retainUntil,
      }));
      await this.stores.lighthouse.add(records);
      // Each page and preset's newest scores: this run's where it scored, else the last ones.
      const standing = new Map(
        [...last, ...records.filter((record) => record.figures !== null)]
          .sort((a, b) => a.at.getTime() - b.at.getTime())
          .map((record) => [`${record.url} ${record.preset}`, record]),
      );
      await this.stores.summaries.write({
        ...owner,
        kind: 'lighthouse',
        crawl: null,
        lighthouse: [...standing.values()].flatMap((record) =>
          record.figures
            ? [
                {
                  url: record.url,
                  preset: record.preset,
                  at: record.at.toISOString(),
                  scores: record.figures.scores,
                },
              ]
            : [],
        ),
      });
      news = {
        ...(news ?? {
          runId: run.runId,
          brokenLinks: [],
          brokenLinkCount: 0,
          mixedContent: [],
          mixedContentCount: 0,
          fixedCount: 0,
        }),
        lighthouse: degraded,
      };
    }
    return news;
  }

  /** A removed monitor's findings and scores. */
  async forget(owner: { organizationId: number; monitorId: number }): Promise<void> {
    await this.stores.findings.forget(owner);
    await this.stores.lighthouse.forget(owner);
    await this.stores.summaries.forget(owner);
  }

  /** Fixed findings and Lighthouse runs past their retention. */
  async deleteExpired(now: Date): Promise<number> {
    return (
      (await this.stores.findings.deleteExpired(now)) + (await this.stores.lighthouse.deleteExpired(now))
    );
  }
}

/** The events a run's news makes: one per kind of news, none when nothing is new. */
export function siteHealthEventKinds(
  news: SiteHealthNews | null,
): Array<'site.links_broken' | 'site.mixed_content' | 'site.lighthouse_degraded'> {
  if (!news) return [];
  return [
    ...(news.brokenLinkCount > 0 ? (['site.links_broken'] as const) : []),
    ...(news.mixedContentCount > 0 ? (['site.mixed_content'] as const) : []),
    ...(news.lighthouse.length > 0 ? (['site.lighthouse_degraded'] as const) : []),
  ];
}
