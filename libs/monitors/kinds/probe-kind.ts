import { z } from 'zod';
import type { TlsObservation } from '../../checks/index.js';
import { certificateSummary, matchesPattern, patternProblem } from '../../checks/index.js';
import type { OtherMonitorKind } from '../../events/index.js';
import type { Feature, Limits } from '../../packages/index.js';
import type { ProbeOptions } from '../../probe/index.js';
import type { Lane } from '../../scheduler/index.js';
import type { MonitorVerdict } from '../verdict.js';

/**
 * A kind of monitor that probes a service on an interval from each region (ICMP, UDP, gRPC,
 * WebSocket, mail servers): its settings' schema (the API body, the OpenAPI document, the stored
 * document), its probe (I/O only), its verdict (pure), its evidence (bounded) and its lane.
 * Adding a kind is one file of `kinds/` and one line of `PROBE_KINDS`.
 */

export type ProbeKindName = Exclude<OtherMonitorKind, 'heartbeat' | 'dns' | 'port'>;

/** What one check of a kind gathered and decided, as the runner stores and tells it. */
export interface ProbeOutcome {
  startedAt: Date;
  durationMs: number;
  /** The address the SSRF guard judged and the probe reached; null when it got no further. */
  address: string | null;
  verdict: MonitorVerdict;
  /** What the check saw, bounded (each kind's own fields), secrets never in it. */
  evidence: Record<string, unknown>;
  /** The step timings the probe measured, in ms (null: the step did not happen). */
  timings: Record<string, number | null>;
  /** The server certificate, where the kind does TLS (ssl events come from it). */
  tls: TlsObservation | null;
}

/** What a check needs besides its settings: the guard and resolver of every probe, one deadline. */
export interface ProbeContext {
  probe: ProbeOptions;
  timeoutMs: number;
  alerting: { sslExpiryWarningDays: number };
}

export interface ProbeKind {
  kind: ProbeKindName;
  /** What people call one: "ping check". */
  noun: string;
  /** The package feature that includes it, and the limit per website that bounds it. */
  feature: Feature;
  limit: keyof Limits;
  lane: Lane;
  /** One line for the API document: what it does and what fails it. */
  description: string;
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
  /** The fields as a create takes them (defaults filled in; the host may be left to the website's). */
  settings: z.ZodObject;
  /** The shortest timeout its settings can finish within (ICMP: its echo requests' spacing); none: any. */
  minTimeoutMs?(settings: Record<string, unknown>): number;
  /** The host the check reaches (judged by the SSRF guard when written); null: the website's host. */
  hostOf(settings: Record<string, unknown>): string | null;
  /** Its name when none is given. */
  defaultName(settings: Record<string, unknown>): string;
  /** Gathers, then decides (the probe is I/O, the verdict pure; both are the kind's own). */
  check(settings: Record<string, unknown>, context: ProbeContext): Promise<ProbeOutcome>;
}

/** Builds a kind from its typed parts; the runner sees only `ProbeKind` (settings parsed at the border). */
export function defineProbeKind<S extends z.ZodObject, O extends { startedAt: Date; address: string | null }>(
  definition: Omit<ProbeKind, 'settings' | 'hostOf' | 'defaultName' | 'check'> & {
    settings: S;
    hostOf(settings: z.output<S>): string | null;
    defaultName(settings: z.output<S>): string;
    minTimeoutMs?(settings: z.output<S>): number;
    probe(settings: z.output<S>, context: ProbeContext): Promise<O>;
    verdict(settings: z.output<S>, observation: O, context: ProbeContext, now: Date): MonitorVerdict;
    evidence(observation: O): Record<string, unknown>;
    timings(observation: O): Record<string, number | null>;
    tls?(observation: O): TlsObservation | null;
  },
): ProbeKind {
  const read = (settings: Record<string, unknown>) => definition.settings.parse(settings) as z.output<S>;
  return {
    kind: definition.kind,
    noun: definition.noun,
    feature: definition.feature,
    limit: definition.limit,
    lane: definition.lane,
    description: definition.description,
    ...(definition.sealedRecords ? { sealedRecords: definition.sealedRecords } : {}),
    ...(definition.secretRecords ? { secretRecords: definition.secretRecords } : {}),
    fields: definition.fields,
    settings: definition.settings,
    hostOf: (settings) => definition.hostOf(read(settings)),
    defaultName: (settings) => definition.defaultName(read(settings)),
    ...(definition.minTimeoutMs
      ? {
          minTimeoutMs: (settings: Record<string, unknown>) => definition.minTimeoutMs?.(read(settings)) ?? 0,
        }
      : {}),
    async check(settings, context) {
      const typed = read(settings);
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
      };
    },
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
