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
  EVENT_KINDS,
  type EventKind,
  secretFieldsOf,
} from './channel.schema.js';
export {
  type ChannelCustomersPort,
  ChannelService,
  type ChannelWebsitesPort,
} from './channel.service.js';
export { channelRoutes, toChannelView } from './channels.routes.js';
