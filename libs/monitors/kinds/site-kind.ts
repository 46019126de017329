import { z } from 'zod';
import { newHopConnection, ProbeFailure, type ProbeOptions, resolveGuarded } from '../../probe/index.js';

/* What the site-health kinds (a crawl, a Lighthouse check) share: their schedule, their pages' URLs, the check before a run. */

/** A site-health check's schedule, as people choose it: its interval follows. */
export const SCHEDULE_SECONDS = { hourly: 3_600, daily: 86_400, weekly: 604_800 } as const;
export type SiteSchedule = keyof typeof SCHEDULE_SECONDS;

export const scheduleField = <S extends SiteSchedule>(schedules: readonly [S, ...S[]], fallback: S) =>
  z
    .enum(schedules)
    .default(fallback)
    .describe(
      `How often it runs: ${schedules.join(', ')} (its interval follows; not sent as intervalSeconds)`,
    );

/** A page of the site a check starts from: http: or https:, no credentials. */
export const siteUrlField = z
  .string()
  .max(2048)
  .refine((text) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol), {
    message: 'must be an http: or https: URL',
  })
  .refine((text) => !URL.canParse(text) || (new URL(text).username === '' && new URL(text).password === ''), {
    message: 'must not carry a user name or password',
  });

/** Where a page's host may be reached, or why not (the SSRF guard's word, DNS), before a long run starts. */
export async function reachablePage(
  probe: ProbeOptions,
  url: string,
  signal?: AbortSignal,
): Promise<
  { address: string; failure: null } | { address: null; failure: { code: string; message: string } }
> {
  const page = new URL(url);
  const port = Number(page.port) || (page.protocol === 'https:' ? 443 : 80);
  try {
    return {
      address: await resolveGuarded(probe, newHopConnection(), page.hostname, port, signal),
      failure: null,
    };
  } catch (error) {
    if (!(error instanceof ProbeFailure)) throw error;
    return { address: null, failure: { code: error.code, message: error.message } };
  }
}
