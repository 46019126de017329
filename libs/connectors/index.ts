export type {
  ConfigProblem,
  ConfigValue,
  Connector,
  ConnectorIo,
  OpenedChannel,
  OutgoingRequest,
  PersonalMedium,
  PersonalMessage,
  RequestConnector,
  Verdict,
} from './connector.js';
export { type ChannelMail, emailMessage, type MailAttachment, sendChannelMail } from './email.js';
export { type EventSummary, summarize } from './event-summary.js';
export {
  BlockedDestinationError,
  EXCERPT_BYTES,
  GuardedHttp,
  type HttpAnswer,
  type HttpCall,
} from './guarded-http.js';
export { escapeHtml, escapeXml } from './markup.js';
export { CHANNEL_TYPES, type ChannelType, CONNECTORS, connectorOf } from './registry.js';
export { webhookHeaders, webhookSignature } from './signing.js';
export { postMessage as postSlackMessage } from './slack.js';
export {
  parseSlackRequest,
  saysAck,
  slackSignature,
  slackSignatureProblem,
  slackUserOf,
  type ThreadReply,
  threadReplies,
  usersInfoCall,
} from './slack-events.js';
