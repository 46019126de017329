import type { ChannelType, ConfigValue } from '../notifications/index.js';
import type { EventPayload, EventSummary, Severity } from './event-payload.js';
import { summarize } from './event-payload.js';
import { webhookHeaders } from './signing.js';

/** One HTTP POST a connector makes. */
export interface OutgoingRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A channel as a connector sees it: its config with the write-only fields opened. */
export interface OpenedChannel {
  type: ChannelType;
  config: Readonly<Record<string, ConfigValue>>;
  secrets: Readonly<Record<string, string>>;
}

const JSON_TYPE = { 'content-type': 'application/json' };

const COLOR: Record<Severity, number> = {
  critical: 0xd92d20,
  error: 0xd92d20,
  warning: 0xf79009,
  info: 0x1570ef,
};

const text = (value: ConfigValue | undefined): string => (typeof value === 'string' ? value : '');

/** Slack mrkdwn treats &, < and > as markup. */
const slackEscape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function lines(payload: EventPayload, summary: EventSummary): string[] {
  const website = payload.data.website;
  return [
    website?.url,
    summary.reason,
    payload.data.incident ? `Incident ${payload.data.incident}` : null,
  ].filter((line): line is string => Boolean(line));
}

function slack(payload: EventPayload, summary: EventSummary): unknown {
  const url = payload.data.website?.url;
  const details = [
    url ? `<${url}|${slackEscape(url)}>` : null,
    summary.reason ? slackEscape(summary.reason) : null,
  ].filter(Boolean);
  return {
    text: summary.title,
    blocks: [
      {
        type: 'section',
        text: { type: 'mrkdwn', text: [`*${slackEscape(summary.title)}*`, ...details].join('\n') },
      },
    ],
  };
}

function discord(payload: EventPayload, summary: EventSummary): unknown {
  return {
    // Nobody is pinged by what a monitored page or a check message says.
    allowed_mentions: { parse: [] },
    embeds: [
      {
        title: summary.title.slice(0, 256),
        description: lines(payload, summary).join('\n').slice(0, 4096) || undefined,
        url: payload.data.website?.url,
        color: COLOR[summary.severity],
        timestamp: payload.createdAt,
      },
    ],
  };
}

function teams(payload: EventPayload, summary: EventSummary): unknown {
  const website = payload.data.website;
  const facts = [
    website ? { title: 'Website', value: website.url } : null,
    payload.data.status ? { title: 'Status', value: payload.data.status } : null,
    summary.reason ? { title: 'Reason', value: summary.reason } : null,
    { title: 'At', value: payload.createdAt },
  ].filter(Boolean);
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            {
              type: 'TextBlock',
              text: summary.title,
              weight: 'Bolder',
              size: 'Medium',
              wrap: true,
              color:
                summary.severity === 'info'
                  ? 'Good'
                  : summary.severity === 'warning'
                    ? 'Warning'
                    : 'Attention',
            },
            { type: 'FactSet', facts },
          ],
          ...(website
            ? { actions: [{ type: 'Action.OpenUrl', title: 'Open website', url: website.url }] }
            : {}),
        },
      },
    ],
  };
}

/** The key that ties a trigger to its resolve: the incident, else one per website and kind. */
function alertKey(payload: EventPayload): string {
  if (payload.data.incident) return payload.data.incident;
  if (payload.type === 'test') return `test-${payload.id}`;
  return `${payload.type}-${payload.data.website?.id ?? 'none'}`;
}

/** Incident tools hear about problems and their end; maintenance is not an alert. */
const isMaintenance = (payload: EventPayload) => payload.type.startsWith('maintenance.');

function pagerduty(
  channel: OpenedChannel,
  payload: EventPayload,
  summary: EventSummary,
): OutgoingRequest | null {
  if (isMaintenance(payload)) return null;
  const routing_key = channel.secrets.routingKey ?? '';
  const dedup_key = alertKey(payload);
  const body =
    payload.type === 'website.up'
      ? { routing_key, event_action: 'resolve', dedup_key }
      : {
          routing_key,
          event_action: 'trigger',
          dedup_key,
          payload: {
            summary: [summary.title, summary.reason].filter(Boolean).join(': ').slice(0, 1024),
            source: payload.data.website?.url ?? 'webmon',
            severity: summary.severity,
            timestamp: payload.createdAt,
            custom_details: { event: payload.type, status: payload.data.status, reason: summary.reason },
          },
          links: payload.data.website
            ? [{ href: payload.data.website.url, text: payload.data.website.name }]
            : [],
        };
  return { url: text(channel.config.eventsUrl), headers: JSON_TYPE, body: JSON.stringify(body) };
}

const OPSGENIE_PRIORITY: Record<Severity, string> = {
  critical: 'P1',
  error: 'P2',
  warning: 'P3',
  info: 'P5',
};

function opsgenie(
  channel: OpenedChannel,
  payload: EventPayload,
  summary: EventSummary,
): OutgoingRequest | null {
  if (isMaintenance(payload)) return null;
  const base = text(channel.config.apiUrl).replace(/\/+$/, '');
  const headers = { ...JSON_TYPE, authorization: `GenieKey ${channel.secrets.apiKey ?? ''}` };
  const alias = alertKey(payload);
  if (payload.type === 'website.up') {
    return {
      url: `${base}/v2/alerts/${encodeURIComponent(alias)}/close?identifierType=alias`,
      headers,
      body: JSON.stringify({ source: 'webmon', note: summary.title }),
    };
  }
  return {
    url: `${base}/v2/alerts`,
    headers,
    body: JSON.stringify({
      message: summary.title.slice(0, 130),
      alias,
      description: lines(payload, summary).join('\n').slice(0, 15_000),
      priority: OPSGENIE_PRIORITY[summary.severity],
      source: 'webmon',
      details: { event: payload.type, url: payload.data.website?.url ?? '' },
    }),
  };
}

/**
 * The request a channel of an HTTP-only type makes for an event, or null when the event means
 * nothing to that tool (maintenance to an incident tool).
 */
export function httpRequestFor(
  channel: OpenedChannel,
  payload: EventPayload,
  at: Date,
): OutgoingRequest | null {
  const summary = summarize(payload);
  switch (channel.type) {
    case 'webhook': {
      const body = JSON.stringify(payload);
      return {
        url: text(channel.config.url),
        headers: {
          ...JSON_TYPE,
          // The previous secret is there only while its rotation grace lasts.
          ...webhookHeaders(
            [channel.secrets.secret, channel.secrets.previousSecret].filter((s): s is string => Boolean(s)),
            payload.id,
            at,
            body,
          ),
        },
        body,
      };
    }
    case 'slack':
    case 'discord':
    case 'teams': {
      // Incoming-webhook tools: the URL is the credential, the body the tool's message format.
      const message = { slack, discord, teams }[channel.type](payload, summary);
      return { url: channel.secrets.webhookUrl ?? '', headers: JSON_TYPE, body: JSON.stringify(message) };
    }
    case 'pagerduty':
      return pagerduty(channel, payload, summary);
    case 'opsgenie':
      return opsgenie(channel, payload, summary);
    default:
      throw new Error(`${channel.type} channels do not deliver over a single HTTP request`);
  }
}
