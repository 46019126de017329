import type { z } from 'zod';
import type { EventPayload } from '../events/index.js';
import type { TargetGuard } from '../targets/index.js';
import type { HttpAnswer, HttpCall } from './guarded-http.js';

export type ConfigValue = string | number | boolean | string[] | null;

/** A channel as its connector sees it: its config, with the write-only fields opened. */
export interface OpenedChannel {
  config: Readonly<Record<string, ConfigValue>>;
  secrets: Readonly<Record<string, string>>;
  /**
   * The channel's template rendered for this event (issue 45): where the tool shows a message's
   * text, this text replaces the default one (structured fields — links, severity — stay).
   */
  message?: string;
}

/** How a connector reaches one person: a text message, a call, or a push to their device. */
export type PersonalMedium = 'sms' | 'voice' | 'push';

/** A message for one person: an escalation step's alert, or a contact method's code. */
export interface PersonalMessage {
  medium: PersonalMedium;
  /** The whole message (an SMS, a push's body); connectors cut it to their tool's limit. */
  text: string;
  /** A push's title / a mail's subject. */
  title: string;
  /** What a call reads out (defaults to `text`). */
  spoken?: string;
  /**
   * A signed one-time link that acknowledges the alert (absent for codes): a push links to it; a
   * call asks for a keypress of 1 and sends it there (the endpoint answers the provider's markup).
   */
  ackUrl?: string;
}

/** What a connector sends with: nothing else reaches the network. */
export interface ConnectorIo {
  /** HTTP through the SSRF guard, no redirects, within the delivery timeout; unreachable → throws. */
  send(call: HttpCall, maxBytes?: number): Promise<HttpAnswer>;
  /** For protocols other than HTTP: what a destination address may be, and how long to wait. */
  guard: TargetGuard;
  timeoutMs: number;
  /** What an earlier delivery of this channel for `incident` recorded (a ticket to close). */
  externalRefOf(incident: string): Promise<string | null>;
  /** When the attempt started (signatures carry it). */
  at: Date;
}

/**
 * How an attempt went. `done`: delivered. `retry`: try again after SPEC's delay (until the series'
 * last). `gone`: the receiver says it is gone for good; the channel is disabled. `skipped`: the event
 * means nothing to this tool. A connector that cannot reach its tool throws (retried too).
 */
export type Verdict =
  | { verdict: 'skipped'; reason: string }
  | { verdict: 'done'; httpStatus: number | null; excerpt: string; externalRef?: string }
  | { verdict: 'retry' | 'gone'; httpStatus: number | null; excerpt: string; problem: string };

export interface ConfigProblem {
  path: string;
  message: string;
}

/** One kind of notification channel: everything about it lives in its connector. */
export interface Connector {
  /** The tool's name, in messages ("PagerDuty"). */
  label: string;
  /** The `config` fields, without defaults (a PATCH sends some of them). */
  shape: Readonly<Record<string, z.ZodType>>;
  /** Write-only fields: sealed at rest, never returned, never logged. */
  secrets: readonly string[];
  /** What a create may omit. */
  defaults: Readonly<Record<string, ConfigValue | undefined>>;
  /** Fields holding a bare host name (not a URL) that the SSRF guard judges at write time. */
  hostFields?: readonly string[];
  /** The channel signs its deliveries with a secret made at create time (and rotatable). */
  signs?: true;
  /** Rules that span fields, on the config as stored (write-only fields as '(set)' or null). */
  problems?(config: Readonly<Record<string, unknown>>): ConfigProblem[];
  /** Renders the event for the tool, sends it, and says how that went. */
  deliver(channel: OpenedChannel, event: EventPayload, io: ConnectorIo): Promise<Verdict>;
  /** The media through which this tool reaches one person at an address of theirs (on-call, codes). */
  reaches?: readonly PersonalMedium[];
  /** Sends `message` to one person at `to` (an E.164 number, a topic, a user key) instead of the config's recipients. */
  reach?(channel: OpenedChannel, to: string, message: PersonalMessage, io: ConnectorIo): Promise<Verdict>;
}

/** A connector whose field lists name only fields of its own shape (checked where it is written). */
type Checked<Shape, C extends Connector> = Omit<C, 'secrets' | 'defaults' | 'hostFields'> & {
  shape: Shape;
  secrets: readonly (keyof Shape & string)[];
  defaults: { readonly [K in keyof Shape]?: ConfigValue };
  hostFields?: readonly (keyof Shape & string)[];
};

export const defineConnector = <Shape extends Record<string, z.ZodType>>(
  connector: Checked<Shape, Connector>,
): Connector => connector;

/** One HTTP POST a connector makes. */
export interface OutgoingRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A connector whose delivery is one POST: rendering is pure, sending and reading the answer shared. */
export interface RequestConnector extends Connector {
  /** The request for an event, or null when the event means nothing to the tool. */
  request(channel: OpenedChannel, event: EventPayload, at: Date): OutgoingRequest | null;
}

export function requestConnector<Shape extends Record<string, z.ZodType>>(
  spec: Omit<Checked<Shape, RequestConnector>, 'deliver'>,
): RequestConnector {
  return {
    ...spec,
    async deliver(channel, event, io) {
      const request = spec.request(channel, event, io.at);
      if (!request) return notFor(event, spec.label);
      return verdictOf(await io.send({ method: 'POST', ...request }));
    },
  };
}

export const notFor = (event: EventPayload, label: string): Verdict => ({
  verdict: 'skipped',
  reason: `${event.type} is not sent to ${label}`,
});

/** The usual reading of an HTTP answer: 2xx done, 410 gone, anything else worth another try. */
export function verdictOf(
  answer: HttpAnswer,
  extra: { externalRef?: string; problem?: string } = {},
): Verdict {
  const { status, body } = answer;
  if (status >= 200 && status < 300 && extra.problem === undefined)
    return { verdict: 'done', httpStatus: status, excerpt: body, externalRef: extra.externalRef };
  return {
    verdict: status === 410 ? 'gone' : 'retry',
    httpStatus: status,
    excerpt: body,
    problem: extra.problem ?? `the receiver answered HTTP ${status}`,
  };
}
