import {
  type BrowserJourney,
  fillJourney,
  journeyFields,
  journeyIssues,
  journeySettings,
  journeyTexts,
  secretMasks,
} from '../../../journeys/index.js';
import { fillPlaceholders, placeholdersIn } from '../../../placeholders/index.js';
import { ProbeUnavailableError } from '../../../probe/index.js';
import { newRunId } from '../../run-files.js';
import { defineProbeKind } from '../probe-kind.js';
import { browserEvidence } from './browser.evidence.js';
import { keptFiles } from './browser.files.js';
import { type BrowserObservation, browserVerdict } from './browser.verdict.js';

/**
 * A journey as the engine stores it: its rules across fields, but its secrets' names checked by the
 * engine against those sealed (`unknownSecretReferences`), since a stored journey's own `secrets`
 * record is not kept beside the sealed values and a PATCH may keep them unsent.
 */
const browserSettings = journeySettings.superRefine(
  (journey, context) => {
    const referenced = journeyTexts(journey).flatMap(({ text }) =>
      placeholdersIn(text)
        .filter((placeholder) => placeholder.kind === 'secret')
        .map((placeholder) => placeholder.name),
    );
    for (const issue of journeyIssues(journey, { secretNames: referenced }))
      context.addIssue({ code: 'custom', path: [...issue.path], message: issue.message });
  },
  { when: (payload) => payload.issues.length === 0 },
);

/** Where a `goto` step goes once its variables are filled (secrets stand for themselves: not known when written). */
function gotoTargets(journey: BrowserJourney) {
  return journey.steps.flatMap((step, index) => {
    if (step.action !== 'goto') return [];
    const url = fillPlaceholders(step.url, { variables: journey.variables });
    if (!URL.canParse(url)) return [];
    const parsed = new URL(url);
    return [
      {
        host: parsed.hostname.replace(/^\[|\]$/g, ''),
        port: Number(parsed.port) || (parsed.protocol === 'https:' ? 443 : 80),
        path: `steps.${index}.url`,
      },
    ];
  });
}

export const browserKind = defineProbeKind({
  kind: 'browser',
  noun: 'browser journey',
  feature: 'browserChecks',
  limit: 'maxBrowserJourneysPerWebsite',
  // A journey takes seconds to a minute of the worker's one browser: a lane as wide as its slots.
  lane: 'browser',
  description:
    'A journey a real browser (Chromium) plays step by step on the site — go to, click, fill, select, check, press, hover, upload, wait for, expect, screenshot — with the device, locale, time zone, headers, basic auth and cookies given, in a fresh browser context each run, every request the page makes judged by the SSRF guard. The first step that fails stops the run, down, named in the cause; the run keeps each step’s outcome and time, the page’s console errors, failed requests, what the guard refused and each page’s Web Vitals (TTFB, FCP, LCP, CLS, INP), and a failing run the page’s screenshot and a Playwright trace (GET …/results/{runId}/screenshot and …/trace). `secrets` ({{secret.NAME}}) are sealed, shown as "(set)" and masked in every output. Steps are described by the JSON Schema at GET /api/browser-steps/schema; a Playwright recording converts with POST /api/browser-steps/from-playwright. Package feature `browserChecks`, limits `maxBrowserJourneysPerWebsite`, `maxStepsPerJourney` and `minBrowserIntervalSeconds`.',
  sealedRecords: ['secrets'],
  secretRecords: ['secrets'],
  fields: journeyFields,
  settings: browserSettings,
  defaults: { intervalSeconds: 600, timeoutSeconds: 60 },
  minIntervalSeconds: (pkg) => pkg.limits.minBrowserIntervalSeconds,
  // Its steps may go to several hosts: each `goto` is judged on its own.
  hostOf: () => null,
  targetsOf: gotoTargets,
  packageProblems: (s, pkg) =>
    s.steps.length > pkg.limits.maxStepsPerJourney
      ? [
          {
            path: 'steps',
            message: `has ${s.steps.length} steps; the package allows ${pkg.limits.maxStepsPerJourney} (limits.maxStepsPerJourney)`,
          },
        ]
      : [],
  defaultName: (s) => {
    const first = gotoTargets(s)[0];
    return `Browser journey${first ? ` ${first.host}` : ''} (${s.steps.length} steps)`;
  },
  probe: async (s, context): Promise<BrowserObservation> => {
    if (!context.journeys) throw new ProbeUnavailableError('this process runs no browser for journeys');
    const runId = newRunId();
    const opened = { variables: s.variables, secrets: s.secrets };
    const journey = fillJourney(s, opened);
    const run = await context.journeys.run(
      {
        journey,
        masks: secretMasks({ secrets: s.secrets, basicAuth: journey.basicAuth }),
        deadlineMs: context.timeoutMs,
      },
      context.probe,
    );
    // What the run keeps within its bound in all: the evidence names these and no other file.
    return { ...run, ...keptFiles(run), runId };
  },
  verdict: (_s, seen) => browserVerdict(seen),
  evidence: browserEvidence,
  timings: (seen) => ({
    ...Object.fromEntries(seen.steps.map((step) => [`step${step.index + 1}Ms`, step.durationMs])),
    totalMs: seen.durationMs,
  }),
  artifacts: (seen) => ({
    runId: seen.runId,
    files: [
      ...seen.screenshots.map((shot) => ({ kind: 'screenshot' as const, name: shot.name, data: shot.png })),
      ...(seen.trace ? [{ kind: 'trace' as const, name: 'trace', data: seen.trace }] : []),
    ],
  }),
});
