import { idParams } from '../../../libs/contract/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import type { ChannelService } from '../../../libs/notifications/index.js';
import {
  channelView,
  createChannelBody,
  createdChannelView,
  listChannelsQuery,
  patchChannelBody,
  rotatedSecretView,
  toChannelView,
} from '../../../libs/notifications/index.js';

const TAGS = ['Notification channels'];

/** `/api/notification-channels`: where an organization's alerts go (reading needs read, changing write). */
export function channelRoutes(service: ChannelService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/notification-channels',
      operationId: 'listNotificationChannels',
      summary: 'List the organization’s notification channels',
      tags: TAGS,
      access: 'read',
      query: listChannelsQuery,
      success: { status: 200, description: 'Channels, by id', schema: channelView.array() },
      handle: async ({ auth, query }) => (await service.list(auth.organizationId, query)).map(toChannelView),
    }),
    defineRoute({
      method: 'post',
      path: '/api/notification-channels',
      operationId: 'createNotificationChannel',
      summary: 'Create a notification channel',
      description:
        '`config` depends on `type`. Write-only fields (webhook URLs of chat tools, keys, tokens, passwords) are encrypted at rest and never returned. A webhook channel’s signing secret is generated and returned this once.',
      tags: TAGS,
      access: 'write',
      body: createChannelBody,
      problems: [409],
      success: { status: 201, description: 'Created', schema: createdChannelView },
      handle: async ({ auth, body, ctx }) => {
        const { channel, secret } = await service.create(auth.organizationId, body);
        ctx.set('Location', `/api/notification-channels/${channel.id}`);
        return { ...toChannelView(channel), ...(secret ? { secret } : {}) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/notification-channels/:id',
      operationId: 'getNotificationChannel',
      summary: 'Get a notification channel',
      tags: TAGS,
      access: 'read',
      params: idParams,
      success: { status: 200, description: 'The channel', schema: channelView },
      handle: async ({ auth, params }) => toChannelView(await service.get(auth.organizationId, params.id)),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/notification-channels/:id',
      operationId: 'updateNotificationChannel',
      summary: 'Change a notification channel; config fields are merged',
      description:
        'The type cannot change. `scope` sent replaces the scope. Write-only config fields omitted are kept; null clears an optional one.',
      tags: TAGS,
      access: 'write',
      params: idParams,
      body: patchChannelBody,
      problems: [409],
      success: { status: 200, description: 'The updated channel', schema: channelView },
      handle: async ({ auth, params, body }) =>
        toChannelView(await service.update(auth.organizationId, params.id, body)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/notification-channels/:id/rotate-secret',
      operationId: 'rotateNotificationChannelSecret',
      summary: 'Replace a webhook channel’s signing secret',
      description:
        'For 24 hours deliveries carry two signatures (new and old, space separated in webhook-signature), so receivers can switch without losing any.',
      tags: TAGS,
      access: 'write',
      params: idParams,
      problems: [409],
      success: { status: 200, description: 'The new secret, shown this once', schema: rotatedSecretView },
      handle: async ({ auth, params }) => {
        const rotated = await service.rotateSecret(auth.organizationId, params.id);
        return {
          secret: rotated.secret,
          previousSecretValidUntil: rotated.previousSecretUntil.toISOString(),
        };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/notification-channels/:id',
      operationId: 'deleteNotificationChannel',
      summary: 'Delete a notification channel (websites listing it stop listing it)',
      tags: TAGS,
      access: 'write',
      params: idParams,
      success: { status: 204, description: 'Deleted' },
      handle: async ({ auth, params }) => service.delete(auth.organizationId, params.id),
    }),
  ];
}
