import { appLink } from '../../../libs/config/index.js';
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
  templatePreviewBody,
  templatePreviewView,
  toChannelView,
} from '../../../libs/notifications/index.js';
import { previewTemplate } from '../../../libs/templates/index.js';
import type { WebsiteRepository } from '../../../libs/websites/index.js';

const TAGS = ['Notification channels'];

/** What a template preview's sample event is made of: the organization's first website, and the app's links. */
export interface PreviewSources {
  websites: Pick<WebsiteRepository, 'idsAfter' | 'findByIds'>;
  /** PUBLIC_URL (the app's links, as alerts carry them). */
  config: Parameters<typeof appLink>[0];
}

/** The organization's first website, as an event carries it; null when it has none. */
async function firstWebsite(sources: PreviewSources | undefined, organizationId: number) {
  if (!sources) return null;
  const ids = await sources.websites.idsAfter(organizationId, 0, 1);
  const [website] = await sources.websites.findByIds(organizationId, ids);
  return website
    ? {
        id: website.id,
        publicId: website.publicId,
        name: website.name,
        url: website.url,
        customerId: website.customerId,
      }
    : null;
}

/**
 * `/api/notification-channels`: where an organization's alerts go (reading needs read, changing
 * write). `preview`: what template previews are made of (without it, a sample website and links).
 */
export function channelRoutes(service: ChannelService, preview?: PreviewSources): Route[] {
  const incidentLink = (id: string) =>
    appLink(preview?.config ?? { PUBLIC_URL: undefined, PORT: 8080 }, `/incidents/${id}`).href;
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
      method: 'post',
      path: '/api/notification-channels/template-preview',
      operationId: 'previewNotificationChannelTemplate',
      summary: 'Render a message template for a sample event',
      description:
        'The template rendered as the notifier would, for a realistic sample event of `eventType` (default website.down) about one of the organization’s websites (a sample one when it has none). A template that does not parse or render answers 200 with `problem` (line and column) and no text: a channel with it sends the default message. `unknownVariables` lists what it reads that no event has. See docs/templates.md.',
      tags: TAGS,
      access: 'write',
      body: templatePreviewBody,
      success: { status: 200, description: 'The rendered text, or why not', schema: templatePreviewView },
      handle: async ({ auth, body }) => {
        const { problem, ...rendered } = previewTemplate(body.template, body.eventType ?? 'website.down', {
          organizationId: auth.organizationId,
          website: await firstWebsite(preview, auth.organizationId),
          incidentLink,
          grouped: body.grouped,
        });
        return { ...rendered, ...(problem ? { problem } : {}) };
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
