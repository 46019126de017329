/** @jsxRuntime automatic @jsxImportSource preact */
import { type BadgeColor, badgeSvg } from './badge.js';
import { type PageLanguage, pageLanguage, translator } from './i18n/index.js';
import { renderHtmlDocument } from './page-html.js';
import type { StatusPageData } from './page-model.js';
import type { PublishedPage } from './shared-pages.js';

export type Overall = StatusPageData['overall'];

/** The page's overall state in a word or two (in the page's language), and its colour: what its badge and widget show. */
export function overallBadge(state: string, language?: PageLanguage): { value: string; color: BadgeColor } {
  const t = translator({ language });
  switch (state) {
    case 'operational':
      return { value: t.text('badge.operational'), color: 'green' };
    case 'degraded':
      return { value: t.text('badge.degraded'), color: 'yellow' };
    case 'partial-outage':
      return { value: t.text('badge.partialOutage'), color: 'red' };
    case 'major-outage':
      return { value: t.text('badge.majorOutage'), color: 'red' };
    case 'maintenance':
      return { value: t.text('badge.maintenance'), color: 'yellow' };
    default:
      return { value: t.text('badge.unknown'), color: 'grey' };
  }
}

/** The whole page's badge: `status | operational`, as a website's badge looks, in the page's language. */
export const pageBadgeSvg = (overall: Overall, language?: PageLanguage) => {
  const { value, color } = overallBadge(overall.state, language);
  return badgeSvg(translator({ language }).text('badge.label'), value, color);
};

/** What the badge and the widget show of a page, and the language it speaks. */
export interface PageSummary {
  title: string;
  overall: Overall;
  language: PageLanguage;
}

/** Read once per rendered page: the page's data is kept compressed, and badges come often. */
const summaries = new WeakMap<PublishedPage, Promise<PageSummary>>();

/** The title and overall state a rendered page shows, read from its JSON (made with the page: the same). */
export function publishedSummary(page: PublishedPage): Promise<PageSummary> {
  let summary = summaries.get(page);
  if (!summary) {
    summary = page.json.coded('identity').then((bytes) => {
      const data = JSON.parse(bytes.toString('utf8')) as PageSummary;
      return {
        title: data.title,
        overall: { state: data.overall.state, text: data.overall.text },
        language: pageLanguage(data.language),
      };
    });
    summaries.set(page, summary);
    summary.catch(() => summaries.delete(page));
  }
  return summary;
}

const DOT: Record<ReturnType<typeof overallBadge>['color'], string> = {
  green: '#17b26a',
  yellow: '#f79009',
  red: '#f04438',
  grey: '#98a2b3',
};

const WIDGET_STYLE = `
:root{color-scheme:light;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;font-size:14px}
body{margin:0;background:transparent}
a{display:flex;align-items:center;gap:.5rem;padding:.5rem .75rem;color:#1d2939;text-decoration:none;border:1px solid #eaecf0;border-radius:.5rem;background:#fff}
a:hover,a:focus{border-color:#98a2b3}
.dot{flex:none;width:.75rem;height:.75rem;border-radius:50%}
.title{font-weight:600}
.text{color:#475467}
`;

/**
 * The embeddable widget: a tiny document for an iframe, the page's title and overall state (in
 * words, never the colour alone) as one link to the page, opened outside the frame. No script.
 */
export function renderWidget(options: {
  title: string;
  overall: Overall;
  pageHref: string;
  language?: PageLanguage;
}): string {
  const { color } = overallBadge(options.overall.state);
  return renderHtmlDocument(
    <html lang={options.language ?? 'en'}>
      <head>
        <meta charset="utf-8" />
        <meta name="robots" content="noindex" />
        <title>{`${options.title}: ${options.overall.text}`}</title>
        <style>{`${WIDGET_STYLE}.dot{background:${DOT[color]}}`}</style>
      </head>
      <body>
        <a href={options.pageHref} target="_blank" rel="noopener">
          <span class="dot" aria-hidden="true" />
          <span>
            <span class="title">{options.title}</span> <span class="text">{options.overall.text}</span>
          </span>
        </a>
      </body>
    </html>,
  );
}
