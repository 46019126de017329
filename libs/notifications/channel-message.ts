import type { EventPayload } from '../events/index.js';
import { renderTemplate, type TemplateProblem, templateScope } from '../templates/index.js';
import type { ChannelDocument, ChannelRepository } from './channel.repository.js';

/**
 * The channel's template rendered for the event, as its connector sends it: `message` is the text
 * (none without a template). When it fails (a render error, a limit hit) there is no message, so
 * the default one goes, and the problem is kept on the channel for its editors; a later rendering
 * that works clears it.
 */
export async function channelMessage(
  channels: ChannelRepository,
  channel: ChannelDocument,
  event: EventPayload,
  at: Date,
): Promise<{ message?: string; problem?: TemplateProblem }> {
  if (!channel.template) return {};
  const rendered = renderTemplate(channel.template, templateScope(event));
  if ('problem' in rendered) {
    await channels.recordTemplateProblem(channel, { ...rendered.problem, at, eventType: event.type });
    return { problem: rendered.problem };
  }
  // Only when the copy in hand shows one: a delivery that renders writes nothing.
  if (channel.templateProblem) await channels.clearTemplateProblem(channel);
  return { message: rendered.text };
}
