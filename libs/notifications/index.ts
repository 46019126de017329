export {
  type ChannelDocument,
  ChannelRepository,
  channelIndexes,
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
  patchChannelBody,
  rotatedSecretView,
  secretFieldsOf,
} from './channel.schema.js';
export {
  type ChannelCustomersPort,
  ChannelService,
  type ChannelWebsitesPort,
} from './channel.service.js';
export { toChannelView } from './channel-view.js';
