export {
  type ChannelDeliveryProblem,
  type ChannelDocument,
  ChannelRepository,
  type ChannelRevisionOptions,
  type ChannelTemplateProblem,
  channelIndexes,
  channelListRevisions,
  channelRevisionWarning,
  channelSecretContext,
  openChannel,
} from './channel.repository.js';
export {
  CHANNEL_TYPES,
  type ChannelType,
  type ConfigValue,
  channelView,
  createChannelBody,
  createdChannelView,
  EVENT_KINDS,
  type EventKind,
  listChannelsQuery,
  rotatedSecretView,
  secretFieldsOf,
  templatePreviewBody,
  templatePreviewView,
} from './channel.schema.js';
export {
  type ChannelCustomersPort,
  ChannelService,
  type ChannelWebsitesPort,
} from './channel.service.js';
export {
  type ChannelGrouping,
  type ChannelPatch,
  groupingSchema,
  patchChannelBody,
  templateText,
} from './channel-fields.schema.js';
export { channelMessage } from './channel-message.js';
export { toChannelView } from './channel-view.js';
