import type { Connector } from './connector.js';
import { discord } from './discord.js';
import { email } from './email.js';
import { githubissues } from './githubissues.js';
import { googlechat } from './googlechat.js';
import { gotify } from './gotify.js';
import { jira } from './jira.js';
import { linear } from './linear.js';
import { matrix } from './matrix.js';
import { mattermost } from './mattermost.js';
import { messagebird } from './messagebird.js';
import { ntfy } from './ntfy.js';
import { opsgenie } from './opsgenie.js';
import { pagerduty } from './pagerduty.js';
import { pushover } from './pushover.js';
import { rocketchat } from './rocketchat.js';
import { signal } from './signal.js';
import { slack } from './slack.js';
import { splunkoncall } from './splunkoncall.js';
import { teams } from './teams.js';
import { teamsworkflows } from './teamsworkflows.js';
import { telegram } from './telegram.js';
import { twilio } from './twilio.js';
import { vonage } from './vonage.js';
import { webhook } from './webhook.js';
import { zendesk } from './zendesk.js';
import { zulip } from './zulip.js';

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
  telegram,
  googlechat,
  mattermost,
  rocketchat,
  matrix,
  ntfy,
  pushover,
  gotify,
  zulip,
  signal,
  teamsworkflows,
  splunkoncall,
  zendesk,
  linear,
  githubissues,
  twilio,
  vonage,
  messagebird,
} as const satisfies Record<string, Connector>;

export type ChannelType = keyof typeof CONNECTORS;
export const CHANNEL_TYPES = Object.keys(CONNECTORS) as [ChannelType, ...ChannelType[]];

/** A connector as every caller may use it, whatever its type. */
export const connectorOf = (type: ChannelType): Connector => CONNECTORS[type];
