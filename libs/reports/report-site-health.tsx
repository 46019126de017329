/** @jsxRuntime automatic @jsxImportSource preact */

import {
  crawlSummaryTexts,
  cutText,
  LIGHTHOUSE_COLUMNS,
  linkProblemText,
  MIXED_CONTENT_KINDS,
  pagesText,
  runsText,
  scoresText,
  trendText,
} from './site-health-texts.js';
import type { ReportSiteHealth } from './site-health-view.js';

type Crawl = NonNullable<ReportSiteHealth['crawl']>;
type BrokenLink = Crawl['brokenLinks']['opened']['items'][number];
type LighthousePages = NonNullable<ReportSiteHealth['lighthouse']>;
/** An instant's day as the report's time zone has it ("3 Nov 2026"): crawls run daily or less. */
type AtText = (iso: string | null) => string;

const Head = ({ names }: { names: readonly string[] }) => (
  <thead>
    <tr>
      {names.map((name) => (
        <th scope="col">{name}</th>
      ))}
    </tr>
  </thead>
);

function BrokenLinks({
  caption,
  list,
  which,
  at,
}: {
  caption: string;
  list: Crawl['brokenLinks']['opened'];
  which: string;
  at: AtText;
}) {
  if (list.count === 0) return null;
  const cut = cutText(list.items.length, list.count, which);
  return (
    <>
      {cut && <p class="note">{cut}</p>}
      <table class="findings">
        <caption>{`${caption} (${list.count.toLocaleString('en')})`}</caption>
        <Head names={['Link', 'Problem', 'Found on', 'First seen', 'Fixed']} />
        <tbody>
          {list.items.map((link: BrokenLink) => (
            <tr>
              <th scope="row" class="wrap">
                {link.url}
              </th>
              <td>{linkProblemText(link)}</td>
              <td class="wrap">{pagesText(link)}</td>
              <td>{at(link.firstSeenAt)}</td>
              <td>{link.fixedAt ? at(link.fixedAt) : 'still open'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function MixedContent({ mixed, at }: { mixed: Crawl['mixedContent']; at: AtText }) {
  const count = mixed.active + mixed.passive;
  if (count === 0) return null;
  const cut = cutText(mixed.items.length, count, 'first');
  return (
    <>
      {cut && <p class="note">{cut}</p>}
      <table class="findings">
        <caption>{`Mixed content open at the end of the period (${count.toLocaleString('en')})`}</caption>
        <Head names={['Resource (http:)', 'Kind', 'Found on', 'First seen']} />
        <tbody>
          {mixed.items.map((item) => (
            <tr>
              <th scope="row" class="wrap">
                {item.url}
              </th>
              <td>{MIXED_CONTENT_KINDS[item.category]}</td>
              <td class="wrap">{pagesText(item)}</td>
              <td>{at(item.firstSeenAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** Each page and preset's scores at the period's start and end, the change in an arrow and words. */
function LighthouseScores({ pages, at }: { pages: LighthousePages; at: AtText }) {
  if (pages.count === 0) return <p class="note">Lighthouse: no run scored in the period.</p>;
  const cut = cutText(pages.items.length, pages.count, 'first');
  return (
    <>
      {cut && <p class="note">{cut}</p>}
      <table class="findings">
        <caption>Lighthouse scores: first → last run of the period</caption>
        <Head names={['Page', ...LIGHTHOUSE_COLUMNS.map(([, name]) => name)]} />
        <tbody>
          {pages.items.map((page) => (
            <tr>
              <th scope="row" class="wrap">
                {page.url}
                <div class="url">
                  {`${runsText(page)}: ${page.runs > 1 ? `${at(page.start.at)} → ${at(page.end.at)}` : at(page.end.at)}`}
                </div>
              </th>
              {LIGHTHOUSE_COLUMNS.map(([category]) => {
                const trend = trendText(page.trend[category]);
                return (
                  <td>
                    {scoresText(page.start.scores[category], page.end.scores[category])}
                    <div class="trend">
                      {trend.arrow && <span aria-hidden="true">{`${trend.arrow} `}</span>}
                      {trend.words}
                    </div>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/**
 * A website's site health in its details: what its crawls found and fixed in the period, what is
 * open at its end, and its Lighthouse scores' trend (a website without crawls or Lighthouse checks:
 * nothing).
 */
export function SiteHealth({ health, at }: { health: ReportSiteHealth | undefined; at: AtText }) {
  if (!health) return null;
  const { crawl, lighthouse } = health;
  return (
    <section class="site-health">
      <h4>Site health</h4>
      {crawl && (
        <>
          {crawlSummaryTexts(crawl).map((text) => (
            <p class="summary">{text}</p>
          ))}
          <BrokenLinks
            caption="Broken links found in the period"
            list={crawl.brokenLinks.opened}
            which="latest"
            at={at}
          />
          <BrokenLinks
            caption="Broken links fixed in the period"
            list={crawl.brokenLinks.fixed}
            which="latest fixed"
            at={at}
          />
          <MixedContent mixed={crawl.mixedContent} at={at} />
        </>
      )}
      {lighthouse && <LighthouseScores pages={lighthouse} at={at} />}
    </section>
  );
}
