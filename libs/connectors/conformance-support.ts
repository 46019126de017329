import type { MailReceiver } from '../../test/support/mail-receiver.js';
import type { ReceivedRequest, Receiver } from '../../test/support/receiver.js';
import type { EventKind } from '../events/index.js';
import type { OpenedChannel, PersonalMedium, PersonalMessage } from './connector.js';

/**
 * Test-only: what conformance.test.ts's fixtures are made of (conformance-fixtures.ts for chat and
 * push tools, conformance-tools.ts for incident, ticket and SMS tools).
 */

export const SMTP_ACCOUNT = { username: 'alerts', password: 'smtp-Pa55-word-0f-the-channel' };

export interface Servers {
  http: Receiver;
  smtp: MailReceiver;
}

/** A limited field of a request: its name, its size as the tool counts it, the tool's limit. */
export type Limit = [field: string, size: number, max: number];

export interface Fixture {
  channel(servers: Servers): OpenedChannel;
  /** Events the tool is not told about. */
  skips: readonly EventKind[];
  /** `http`: answers by HTTP status; `smtp`: a rejection is an SMTP error, thrown and retried. */
  answers: 'http' | 'smtp';
  /** How request bodies are written (JSON by default). */
  form?: true;
  /** Makes the tool's side answer as a working one does (its success bodies, a multi-call tool's routes). */
  prepare?(servers: Servers): void;
  /** The reference an opening delivery (a ticket's) returns. */
  opens?: string;
  /** The credential is where the tool looks for it. */
  carriesCredential(request: ReceivedRequest, channel: OpenedChannel): boolean;
  /** The request's length-limited fields (none: the tool sets no limit: webhooks, e-mail). */
  limits?(request: ReceivedRequest): Limit[];
  /** Reaching one person: an address of theirs, and what a request through each medium holds. */
  reach?: {
    to: string;
    holds(request: ReceivedRequest, medium: PersonalMedium, message: PersonalMessage): void;
  };
}

/** The strings a request carries: a form's values, or every string in its JSON. */
export function textsOf(request: ReceivedRequest): string[] {
  if (String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
    return [...new URLSearchParams(request.body).values()];
  const strings: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') strings.push(value);
    else if (value && typeof value === 'object') for (const item of Object.values(value)) walk(item);
  };
  walk(request.json);
  return strings;
}

export const formOf = (request: ReceivedRequest) => Object.fromEntries(new URLSearchParams(request.body));
// biome-ignore lint/suspicious/noExplicitAny: a test reads the JSON the tool would read, whatever its shape.
export const jsonOf = (request: ReceivedRequest): any => request.json ?? {};
export const bytes = (text: unknown) => Buffer.byteLength(String(text ?? ''), 'utf8');
export const chars = (text: unknown) => String(text ?? '').length;
export const basic = (user: string, password: string | undefined) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** Checks for a reach: the request holds the person's address, the message and its acknowledgement link. */
export function expectHolds(condition: boolean | undefined, what: string): void {
  if (!condition) throw new Error(`the request does not hold ${what}`);
}

export const PERSON = '+14155550123';
export const INCIDENT_SKIPS = ['maintenance.started', 'maintenance.ended'] as const;
export const TICKET_SKIPS = [...INCIDENT_SKIPS, 'website.degraded'] as const;
