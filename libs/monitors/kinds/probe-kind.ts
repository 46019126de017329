import { z } from 'zod';
import type { TlsObservation } from '../../checks/index.js';
import { certificateSummary, matchesPattern, patternProblem } from '../../checks/index.js';
import type { FieldError } from '../../errors/index.js';
import type { OtherMonitorKind } from '../../events/index.js';
import type { JourneyBrowser } from '../../journeys/index.js';
import type { Feature, Features, Limits } from '../../packages/index.js';
import type { ProbeOptions } from '../../probe/index.js';
import type { RunArtifact } from '../run-files.js';
import type { MonitorVerdict } from '../verdict.js';
import type { IntervalKindEntry } from './kind-entry.js';
import type { LighthouseRunning, RunProgress, SiteRun } from './site-run.js';

/**
 * A kind of monitor that probes a service on an interval from each region (ICMP, UDP, gRPC,
 * WebSocket, mail servers, TCP ports): its settings' schema, its probe (I/O only), its verdict
 * (pure), its evidence (bounded) and its lane, composed into one check.
 */

export type ProbeKindName = Exclude<OtherMonitorKind, 'heartbeat' | 'dns' | 'port'>;
/** The kinds whose check is their probe then their verdict, nothing remembered between checks. */
export type CheckedKindName = ProbeKindName | 'port';

/** What a probe observed at least: when it began, the address it reached (null: none). */
type Observed = { startedAt: Date; address: string | null };
/** A kind's evidence fields. */
type Shown = Record<string, unknown>;
/** A kind's step timings, in ms (null: the step did not happen). */
type StepTimings = Record<string, number | null>;

/** What one check of a kind gathered and decided, as the runner stores and tells it. */
export interface ProbeOutcome<E extends Shown = Shown, T extends StepTimings = StepTimings> {
  startedAt: Date;
  durationMs: number;
  /** The address the SSRF guard judged and the probe reached; null when it got no further. */
  address: string | null;
  verdict: MonitorVerdict;
  /** What the check saw, bounded (each kind's own fields), secrets never in it. */
  evidence: E;
  /** The step timings the probe measured, in ms (null: the step did not happen). */
  timings: T;
  /** The server certificate, where the kind does TLS (ssl events come from it). */
  tls: TlsObservation | null;
  /** Files the run made (a journey's screenshots and trace), kept under its run's id beside the result. */
  artifacts?: { runId: string; files: RunArtifact[] };
  /** What a site-health run found (a crawl's findings, Lighthouse's figures): kept and compared by the runner. */
  site?: SiteRun;
}

/** What a check needs besides its settings: the guard and resolver of every probe, one deadline. */
export interface ProbeContext {
  probe: ProbeOptions;
  timeoutMs: number;
  alerting: { sslExpiryWarningDays: number };
  /** The process's browser for journeys; absent where none runs (a browser check then cannot run here). */
  journeys?: JourneyRunning;
  /** The package's limits (a crawl's pages). */
  limits?: Limits;
  /** The process's Lighthouse (none: a Lighthouse check cannot run here). */
  lighthouse?: LighthouseRunning;
  /** Told as a long run goes (a crawl's pages, Lighthouse's pages done): a run on request shows it. */
  onProgress?: (progress: RunProgress) => void;
  /** The run's id where it was given one before it began (a site-health run whose progress is shown). */
  runId?: string;
  /** Ends a long run early (the worker stops): it rejects, and another worker runs it again. */
  signal?: AbortSignal;
}

/** What a browser check needs of the process's journey browser. */
export type JourneyRunning = Pick<JourneyBrowser, 'run'>;

/** A kind checked by its probe then its verdict: the runner sees only this (settings parsed at the border). */
export interface CheckedKind<
  K extends CheckedKindName = CheckedKindName,
  E extends Shown = Shown,
  T extends StepTimings = StepTimings,
> extends IntervalKindEntry {
  kind: K;
  feature: Feature;
  limit: keyof Limits;
  /** The fields as a check takes them (defaults filled in). */
  settings: z.ZodObject;
  /** Gathers, then decides (the probe is I/O, the verdict pure; both are the kind's own). */
  check(settings: Record<string, unknown>, context: ProbeContext): Promise<ProbeOutcome<E, T>>;
}

/** A kind stored with its own fields in `settings` (ICMP … POP3): what its create, PATCH and view need besides. */
export interface ProbeKind<K extends ProbeKindName = ProbeKindName> extends CheckedKind<K> {
  /**
   * Fields that are records of names and values (headers, gRPC metadata) whose credential entries
   * (`isCredentialName`) are sealed when written, shown as "(set)", and opened only to check.
   */
  sealedRecords?: readonly string[];
  /**
   * Sealed records of which every entry is sealed, whatever its name (a WebSocket's `secrets`,
   * which its other fields use as `{{secret.NAME}}`).
   */
  secretRecords?: readonly string[];
  /** The kind's own fields (without name, interval, timeout), each once: create fills defaults, PATCH takes any. */
  fields: z.ZodRawShape;
  /** The shortest timeout its settings can finish within (ICMP: its echo requests' spacing); none: any. */
  minTimeoutMs?(settings: Record<string, unknown>): number;
  /** Its interval and timeout when a create gives none. @defaultValue 300 s and 10 s */
  defaults?: { intervalSeconds: number; timeoutSeconds: number };
  /** The shortest interval its package allows it (a browser journey's own); none: the package's for every check. */
  minIntervalSeconds?(pkg: KindPackage): number;
  /** The host the check reaches (judged by the SSRF guard when written); null: the website's host. */
  hostOf(settings: Record<string, unknown>): string | null;
  /**
   * Every target its settings name, each with the field a refusal names, where there are several
   * (an API flow's steps); none: its `hostOf` is the one. Judged by the SSRF guard when written.
   */
  targetsOf?(settings: Record<string, unknown>): KindTarget[];
  /**
   * What its package bounds in its settings besides how many a website has (an API flow's steps,
   * its client certificate): each field over, named; none when within.
   */
  packageProblems?(settings: Record<string, unknown>, pkg: KindPackage): FieldError[];
  /** Its name when none is given. */
  defaultName(settings: Record<string, unknown>): string;
  /**
   * Its interval and timeout made from its settings (a crawl's `schedule`), not sent: a create or
   * change naming `intervalSeconds` or `timeoutSeconds` is refused.
   */
  cadence?: {
    intervalSeconds(settings: Record<string, unknown>): number;
    timeoutSeconds(settings: Record<string, unknown>): number;
  };
  /** Its settings with what they take from the website when not given (a crawl's start URL). */
  fromWebsite?(settings: Record<string, unknown>, websiteUrl: string): Record<string, unknown>;
  /** Checked from one region (the website's first), not each: a crawl from every region would be the same crawl. */
  checkedFrom?: 'one-region';
}

/** A host a check reaches, the port it reaches it on, and the field that names it. */
export interface KindTarget {
  host: string;
  port: number | undefined;
  path: string;
}

/** What of its package a kind's settings are held to. */
export interface KindPackage {
  features: Partial<Features>;
  limits: Limits;
}

/** A checked kind's typed parts, as its folder writes them. */
interface CheckedKindDefinition<
  K extends CheckedKindName,
  S extends z.ZodObject,
  O extends Observed,
  E extends Shown,
  T extends StepTimings,
> extends Pick<CheckedKind<K>, 'kind' | 'noun' | 'feature' | 'limit' | 'lane' | 'description'> {
  settings: S;
  probe(settings: z.output<S>, context: ProbeContext): Promise<O>;
  verdict(settings: z.output<S>, observation: O, context: ProbeContext, now: Date): MonitorVerdict;
  evidence(observation: O): E;
  timings(observation: O): T;
  tls?(observation: O): TlsObservation | null;
  artifacts?(observation: O): ProbeOutcome['artifacts'];
  site?(observation: O): SiteRun;
}

/** Builds a checked kind from its typed parts: the check is its probe, then its verdict, evidence and timings. */
export function defineCheckedKind<
  K extends CheckedKindName,
  S extends z.ZodObject,
  O extends Observed,
  E extends Shown,
  T extends StepTimings,
>(definition: CheckedKindDefinition<K, S, O, E, T>): CheckedKind<K, E, T> {
  return {
    kind: definition.kind,
    noun: definition.noun,
    feature: definition.feature,
    limit: definition.limit,
    lane: definition.lane,
    description: definition.description,
    trigger: 'interval',
    settings: definition.settings,
    probe: definition.probe,
    verdict: definition.verdict,
    evidence: definition.evidence,
    async check(settings, context) {
      const typed = definition.settings.parse(settings) as z.output<S>;
      const observation = await definition.probe(typed, context);
      const timings = definition.timings(observation);
      return {
        startedAt: observation.startedAt,
        durationMs: timings.totalMs ?? 0,
        address: observation.address,
        verdict: definition.verdict(typed, observation, context, new Date()),
        evidence: definition.evidence(observation),
        timings,
        tls: definition.tls?.(observation) ?? null,
        ...(definition.artifacts ? { artifacts: definition.artifacts(observation) } : {}),
        ...(definition.site ? { site: definition.site(observation) } : {}),
      };
    },
  };
}

/** Builds a probe kind: a checked kind, and what its create, PATCH and view need (settings parsed at the border). */
export function defineProbeKind<
  K extends ProbeKindName,
  S extends z.ZodObject,
  O extends Observed,
  E extends Shown,
  T extends StepTimings,
>(
  definition: CheckedKindDefinition<K, S, O, E, T> &
    Pick<
      ProbeKind,
      'sealedRecords' | 'secretRecords' | 'fields' | 'defaults' | 'minIntervalSeconds' | 'checkedFrom'
    > & {
      hostOf(settings: z.output<S>): string | null;
      targetsOf?(settings: z.output<S>): KindTarget[];
      packageProblems?(settings: z.output<S>, pkg: KindPackage): FieldError[];
      defaultName(settings: z.output<S>): string;
      minTimeoutMs?(settings: z.output<S>): number;
      cadence?: {
        intervalSeconds(settings: z.output<S>): number;
        timeoutSeconds(settings: z.output<S>): number;
      };
      fromWebsite?(settings: z.output<S>, websiteUrl: string): z.output<S>;
    },
): ProbeKind<K> {
  const read = (settings: Record<string, unknown>) => definition.settings.parse(settings) as z.output<S>;
  return {
    ...defineCheckedKind(definition),
    ...(definition.sealedRecords ? { sealedRecords: definition.sealedRecords } : {}),
    ...(definition.secretRecords ? { secretRecords: definition.secretRecords } : {}),
    fields: definition.fields,
    ...(definition.defaults ? { defaults: definition.defaults } : {}),
    ...(definition.minIntervalSeconds ? { minIntervalSeconds: definition.minIntervalSeconds } : {}),
    hostOf: (settings) => definition.hostOf(read(settings)),
    ...(definition.targetsOf
      ? { targetsOf: (settings: Record<string, unknown>) => definition.targetsOf?.(read(settings)) ?? [] }
      : {}),
    ...(definition.packageProblems
      ? {
          packageProblems: (settings: Record<string, unknown>, pkg: KindPackage) =>
            definition.packageProblems?.(read(settings), pkg) ?? [],
        }
      : {}),
    defaultName: (settings) => definition.defaultName(read(settings)),
    ...(definition.checkedFrom ? { checkedFrom: definition.checkedFrom } : {}),
    ...(definition.fromWebsite
      ? {
          fromWebsite: (settings: Record<string, unknown>, websiteUrl: string) =>
            definition.fromWebsite?.(read(settings), websiteUrl) ?? settings,
        }
      : {}),
    ...(definition.cadence
      ? {
          cadence: {
            intervalSeconds: (settings: Record<string, unknown>) =>
              definition.cadence?.intervalSeconds(read(settings)) ?? 0,
            timeoutSeconds: (settings: Record<string, unknown>) =>
              definition.cadence?.timeoutSeconds(read(settings)) ?? 0,
          },
        }
      : {}),
    ...(definition.minTimeoutMs
      ? {
          minTimeoutMs: (settings: Record<string, unknown>) => definition.minTimeoutMs?.(read(settings)) ?? 0,
        }
      : {}),
  };
}

/** The certificate as evidence shows it. */
export function certificateEvidence(tls: TlsObservation | null, now: Date): Record<string, unknown> | null {
  if (!tls) return null;
  const summary = certificateSummary(tls, now);
  return {
    subject: tls.subject,
    issuer: tls.issuer,
    validTo: tls.validTo.toISOString(),
    daysLeft: summary.daysLeft,
    valid: summary.valid,
    protocol: tls.protocol,
  };
}

/** A header or metadata name whose value is a credential: sealed at rest, write-only. */
export const isCredentialName = (name: string) =>
  /auth|token|secret|passw|cookie|session|api[-_]?key/i.test(name);

/** Whether an entry of a kind's record is sealed: every entry of a secret record, a credential's of another. */
export const sealsEntry = (kind: Pick<ProbeKind, 'secretRecords'>, field: string, name: string) =>
  (kind.secretRecords?.includes(field) ?? false) || isCredentialName(name);

/** A kind's name in a schema's name: `api-flow` → `ApiFlow`, `icmp` → `Icmp`. */
export const kindSchemaName = (kind: string) =>
  kind
    .split('-')
    .map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`)
    .join('');

/** What a sealed entry's value stands for in views and in a PATCH that keeps it. */
export const SEALED_PLACEHOLDER = '(set)';

/** A text a server sent, as evidence keeps it: control characters but line ends and tabs shown as spaces, cut. */
export const keptText = (text: string, max = 500) =>
  [...text.replace(/\p{Cc}/gu, (c) => (c === '\n' || c === '\t' ? c : ' '))].slice(0, max).join('');

/** What a reply must hold: a text it contains, or an RE2 pattern it matches (checked when written). */
export const expectField = z
  .union([
    z.strictObject({ contains: z.string().min(1).max(1000) }).meta({ id: 'ReplyContains' }),
    z
      .strictObject({
        matches: z
          .string()
          .min(1)
          .max(1000)
          .superRefine((source, context) => {
            const problem = patternProblem(source);
            if (problem) context.addIssue({ code: 'custom', message: problem });
          }),
      })
      .meta({ id: 'ReplyMatches' }),
  ])
  .nullable()
  .describe('What the reply must hold: {contains: text} or {matches: RE2 pattern}; null: any reply');

/** Whether a reply holds what is expected; null when it does (or nothing is), else why not. */
export function expectProblem(expect: z.output<typeof expectField>, reply: string): string | null {
  if (!expect) return null;
  if ('contains' in expect)
    return reply.includes(expect.contains)
      ? null
      : `the reply does not contain ${JSON.stringify(expect.contains)}`;
  return matchesPattern(expect.matches, reply) ? null : `the reply does not match /${expect.matches}/`;
}
