import { openApiSchemas } from '../api/openapi.js';

/** One config field of a connector, as the OpenAPI document describes it. */
export interface ConfigField {
  key: string;
  kind: 'text' | 'url' | 'email' | 'number' | 'boolean' | 'list';
  required: boolean;
  nullable: boolean;
  /** Write-only: sealed at rest and never returned (the view says `<key>Set`). */
  secret: boolean;
  description: string | undefined;
  pattern: string | undefined;
}

export interface ChannelSchema {
  types: string[];
  events: string[];
  /** The config fields of each channel type (`SlackChannelConfig` …). */
  fields: Record<string, ConfigField[]>;
}

type JsonSchema = {
  type?: string;
  format?: string;
  description?: string;
  pattern?: string;
  enum?: string[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

const pascal = (type: string) => `${type.charAt(0).toUpperCase()}${type.slice(1)}`;

function fieldOf(key: string, schema: JsonSchema, required: boolean): ConfigField {
  const variants = schema.anyOf ?? [schema];
  const value = variants.find((v) => v.type !== 'null') ?? schema;
  const kind: ConfigField['kind'] =
    value.type === 'boolean'
      ? 'boolean'
      : value.type === 'integer' || value.type === 'number'
        ? 'number'
        : value.type === 'array'
          ? 'list'
          : value.format === 'uri'
            ? 'url'
            : value.format === 'email'
              ? 'email'
              : 'text';
  const description = schema.description ?? value.description;
  return {
    key,
    kind,
    required,
    nullable: variants.some((v) => v.type === 'null'),
    secret: /write-only/i.test(description ?? ''),
    description,
    pattern: value.pattern,
  };
}

/** The channel types, their config fields and the event kinds, read from the API's own /openapi.json. */
export async function channelSchema(): Promise<ChannelSchema> {
  const schemas = await openApiSchemas<JsonSchema>();
  const types = schemas.ChannelType?.enum ?? [];
  const fields: Record<string, ConfigField[]> = {};
  for (const type of types) {
    const config = schemas[`${pascal(type)}ChannelConfig`];
    const required = new Set(config?.required ?? []);
    fields[type] = Object.entries(config?.properties ?? {}).map(([key, schema]) =>
      fieldOf(key, schema, required.has(key)),
    );
  }
  return { types, events: schemas.EventKind?.enum ?? [], fields };
}

const NAMES: Record<string, string> = {
  webhook: 'Webhook (signed)',
  slack: 'Slack',
  teams: 'Microsoft Teams',
  discord: 'Discord',
  pagerduty: 'PagerDuty',
  opsgenie: 'Opsgenie',
  jira: 'Jira',
  email: 'E-mail',
  telegram: 'Telegram',
  googlechat: 'Google Chat',
  mattermost: 'Mattermost',
  rocketchat: 'Rocket.Chat',
  matrix: 'Matrix',
  ntfy: 'ntfy',
  pushover: 'Pushover',
  gotify: 'Gotify',
  zulip: 'Zulip',
  signal: 'Signal (signal-cli REST API)',
  teamsworkflows: 'Microsoft Teams (Workflows)',
  splunkoncall: 'Splunk On-Call',
  zendesk: 'Zendesk',
  linear: 'Linear',
  githubissues: 'GitHub Issues',
  twilio: 'Twilio (SMS, voice)',
  vonage: 'Vonage (SMS)',
  messagebird: 'MessageBird (SMS)',
};
export const typeName = (type: string) => NAMES[type] ?? type;

/** `webhookUrl` → "Webhook URL", `accountSid` → "Account SID". */
export function fieldLabel(key: string): string {
  const words = key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/\bUrl\b/g, 'URL')
    .replace(/\bApi\b/g, 'API')
    .toLowerCase()
    .replace(/\b(url|api|sid|id|smtp|sms)\b/g, (word) => word.toUpperCase());
  return words.charAt(0).toUpperCase() + words.slice(1);
}
