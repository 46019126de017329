import type { z } from 'zod';
import type { ChannelDocument } from './channel.repository.js';
import { type channelView, secretFieldsOf } from './channel.schema.js';

export function toChannelView(channel: ChannelDocument): z.input<typeof channelView> {
  const writeOnly = secretFieldsOf(channel.type).map((field) => [`${field}Set`, field in channel.secrets]);
  return {
    id: channel.id,
    organizationId: channel.organizationId,
    type: channel.type,
    name: channel.name,
    enabled: channel.enabled,
    events: channel.events,
    scope: {
      ...(channel.scope.customerId === null ? {} : { customerId: channel.scope.customerId }),
      listedOnly: channel.scope.listedOnly,
    },
    config: { ...channel.config, ...Object.fromEntries(writeOnly) },
    template: channel.template ?? null,
    grouping: channel.grouping ?? null,
    templateProblem: channel.templateProblem
      ? { ...channel.templateProblem, at: channel.templateProblem.at.toISOString() }
      : null,
    deliveryProblem: channel.deliveryProblem
      ? {
          ...channel.deliveryProblem,
          since: channel.deliveryProblem.since.toISOString(),
          at: channel.deliveryProblem.at.toISOString(),
        }
      : null,
    createdAt: channel.createdAt.toISOString(),
    updatedAt: channel.updatedAt.toISOString(),
  };
}
