/**
 * A child process of bench/journeys.ts that plays journeys as a worker's browser lane does: one
 * JourneyBrowser (Debian's Chromium, launched by the first run), the journey filled with its
 * variables and secrets and played behind the guard with the shop's 127.0.0.1 port exempt — and
 * nothing else, so that its CPU is the journey runner's own. Driven over IPC:
 *   → { type: 'setup', journey, shopPort, concurrency, deadlineMs }   ← { type: 'ready' }
 *   → { type: 'play', id }                                          ← { type: 'played', id, wallMs, run }
 * It closes its browser and exits on SIGTERM or when its parent goes.
 */
import {
  type BrowserJourney,
  type BrowserJourneyInput,
  fillJourney,
  JourneyBrowser,
  journeySettings,
  secretMasks,
} from '../../libs/journeys/index.js';
import { createLogger } from '../../libs/logging/index.js';

export interface PlayerSetup {
  type: 'setup';
  journey: BrowserJourneyInput;
  shopPort: number;
  concurrency: number;
  deadlineMs: number;
}

/** What the parent learns of one run (no screenshot or trace: they stay here). */
export interface PlayedRun {
  type: 'played';
  id: number;
  /** The `JourneyBrowser.run` call: its guard proxy, the context, the steps, the memory check after. */
  wallMs: number;
  /** The runner's own time (from the context's creation to its closing). */
  durationMs: number;
  passed: boolean;
  error: string | null;
  steps: Array<number | null>;
  /** Each page's time to first byte, as the page measured it. */
  ttfbMs: Array<number | null>;
}

let journeys: JourneyBrowser | null = null;
let journey: BrowserJourney | null = null;
let setup: PlayerSetup | null = null;

const send = (message: unknown) => process.send?.(message);

async function play(id: number): Promise<void> {
  if (!journeys || !journey || !setup) throw new Error('play before setup');
  const { shopPort, deadlineMs } = setup;
  const started = performance.now();
  // As the browser kind's probe does: placeholders filled, secrets masked, the probe's guard.
  const filled = fillJourney(journey, { variables: journey.variables, secrets: journey.secrets });
  const run = await journeys.run(
    { journey: filled, masks: secretMasks({ secrets: journey.secrets }), deadlineMs },
    {
      allowPrivateTargets: false,
      exemptAddresses: [{ address: '127.0.0.1', port: shopPort }],
      resolve: async (hostname: string): Promise<never> => {
        throw new Error(`no lookup expected (${hostname})`);
      },
    },
  );
  const played: PlayedRun = {
    type: 'played',
    id,
    wallMs: performance.now() - started,
    durationMs: run.durationMs,
    passed: run.passed,
    error: run.error,
    steps: run.steps.map((step) => step.durationMs),
    ttfbMs: run.vitals.map((page) => page.ttfbMs),
  };
  send(played);
}

async function shutDown(): Promise<void> {
  await journeys?.close();
  process.exit(0);
}

process.on('message', (message: PlayerSetup | { type: 'play'; id: number }) => {
  if (message.type === 'setup') {
    setup = message;
    journey = journeySettings.parse(message.journey);
    journeys = new JourneyBrowser({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      concurrency: message.concurrency,
      logger: createLogger('bench-journey-player', 'warn'),
    });
    send({ type: 'ready' });
    return;
  }
  play(message.id).catch((error: unknown) => {
    send({ type: 'failed', id: message.id, error: String(error) });
  });
});
process.once('SIGTERM', () => void shutDown());
process.once('disconnect', () => void shutDown());
