import type { Connector } from './connector.js';
import { discord } from './discord.js';
import { email } from './email.js';
import { jira } from './jira.js';
import { opsgenie } from './opsgenie.js';
import { pagerduty } from './pagerduty.js';
import { slack } from './slack.js';
import { teams } from './teams.js';
import { webhook } from './webhook.js';

/** Every kind of notification channel, by its `type`: adding one is its file and a line here. */
export const CONNECTORS = {
  webhook,
  slack,
  teams,
  discord,
  pagerduty,
  opsgenie,
  jira,
  email,
} as const satisfies Record<string, Connector>;

export type ChannelType = keyof typeof CONNECTORS;
export const CHANNEL_TYPES = Object.keys(CONNECTORS) as [ChannelType, ...ChannelType[]];

/** A connector as every caller may use it, whatever its type. */
export const connectorOf = (type: ChannelType): Connector => CONNECTORS[type];
