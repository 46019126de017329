import { z } from 'zod';

/**
 * Web Vitals of each page a journey visits, measured in the page by the browser's own performance
 * entries (what the web-vitals library reads, without its download): TTFB from the navigation
 * entry, FCP from the paint entries, LCP from the last largest-contentful-paint before any input,
 * CLS as the largest session window of layout shifts without recent input, and INP as the longest
 * interaction's duration (where the journey interacted).
 */

/** The global the init script keeps its figures in, read by the runner after each step. */
export const VITALS_GLOBAL = '__webmonVitals';

/**
 * Runs in every document before its own scripts (`context.addInitScript`). It only observes:
 * nothing is sent anywhere, and a page that replaced PerformanceObserver just reports nothing.
 */
export const VITALS_INIT_SCRIPT = `(() => {
  const vitals = { url: location.href, ttfbMs: null, fcpMs: null, lcpMs: null, cls: 0, inpMs: null };
  Object.defineProperty(window, '${VITALS_GLOBAL}', { value: vitals, enumerable: false });
  const observe = (type, handle) => {
    try { new PerformanceObserver((list) => list.getEntries().forEach(handle)).observe({ type, buffered: true, ...(type === 'event' ? { durationThreshold: 16 } : {}) }); } catch {}
  };
  observe('navigation', (entry) => { vitals.ttfbMs = Math.max(0, entry.responseStart - entry.startTime); });
  observe('paint', (entry) => { if (entry.name === 'first-contentful-paint') vitals.fcpMs = entry.startTime; });
  let interacted = false;
  observe('largest-contentful-paint', (entry) => { if (!interacted) vitals.lcpMs = entry.startTime; });
  let session = 0, sessionStart = 0, last = 0;
  observe('layout-shift', (entry) => {
    if (entry.hadRecentInput) return;
    if (session && (entry.startTime - last > 1000 || entry.startTime - sessionStart > 5000)) session = 0;
    if (!session) sessionStart = entry.startTime;
    session += entry.value; last = entry.startTime;
    vitals.cls = Math.max(vitals.cls, session);
  });
  // The first input counts however short (as web-vitals does): event entries only come past 16 ms.
  observe('first-input', (entry) => {
    interacted = true;
    vitals.inpMs = Math.max(vitals.inpMs ?? 0, entry.duration);
  });
  observe('event', (entry) => {
    if (!entry.interactionId) return;
    interacted = true;
    vitals.inpMs = Math.max(vitals.inpMs ?? 0, entry.duration);
  });
  addEventListener('pointerdown', () => { interacted = true; }, { capture: true, once: true });
  addEventListener('keydown', () => { interacted = true; }, { capture: true, once: true });
})();`;

const milliseconds = z.number().min(0).max(3_600_000).nullable();

/** One page's figures as the page reported them (validated: the page's script may have changed them). */
export const pageVitals = z.object({
  url: z.string().max(4096),
  ttfbMs: milliseconds,
  fcpMs: milliseconds,
  lcpMs: milliseconds,
  cls: z.number().min(0).max(1000),
  inpMs: milliseconds,
});
export type PageVitals = z.output<typeof pageVitals>;

/** The page's figures rounded as a run keeps them (ms whole, CLS to 3 places), or null when unreadable. */
export function readVitals(reported: unknown): PageVitals | null {
  const parsed = pageVitals.safeParse(reported);
  if (!parsed.success) return null;
  const ms = (value: number | null) => (value === null ? null : Math.round(value));
  const { url, ttfbMs, fcpMs, lcpMs, cls, inpMs } = parsed.data;
  return {
    url,
    ttfbMs: ms(ttfbMs),
    fcpMs: ms(fcpMs),
    lcpMs: ms(lcpMs),
    cls: Math.round(cls * 1000) / 1000,
    inpMs: ms(inpMs),
  };
}
