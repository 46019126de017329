import { type EventPayload, isDownEvent, isSiteFinding, isUpEvent } from '../events/index.js';
import { type Connector, type ConnectorIo, notFor, type OpenedChannel, type Verdict } from './connector.js';

type Send = ConnectorIo['send'];

/** What a ticket tool (Jira, Zendesk, Linear, GitHub Issues) does at each turn of an incident. */
export interface TicketSteps {
  /** Opens a ticket; a `done` verdict carries its reference (the incident's later events find it). */
  open(channel: OpenedChannel, event: EventPayload, send: Send): Promise<Verdict>;
  /** Comments on the ticket (an acknowledgement). */
  comment(channel: OpenedChannel, event: EventPayload, ref: string, send: Send): Promise<Verdict>;
  /** Comments on the ticket and closes it (the website is up again). */
  close(channel: OpenedChannel, event: EventPayload, ref: string, send: Send): Promise<Verdict>;
}

/**
 * A problem (a website down, what a crawl or Lighthouse found new, a test) opens a ticket, work
 * to do and bill; its acknowledgement comments on it; its end comments on it and closes it.
 * Reminders are not sent (the ticket is open), nor an end whose incident opened none.
 */
export function ticketDelivery(label: string, noun: string, steps: TicketSteps): Connector['deliver'] {
  return async (channel, event, io) => {
    if (event.data.reminder === true)
      return { verdict: 'skipped', reason: `reminders are not sent to ${label}: the ${noun} is open` };
    if (isDownEvent(event.type) || isSiteFinding(event.type) || event.type === 'test')
      return steps.open(channel, event, io.send);
    const incident = event.data.incident;
    const acknowledged = event.type === 'incident.acknowledged';
    if ((!isUpEvent(event.type) && !acknowledged) || !incident) return notFor(event, label);
    const ref = await io.externalRefOf(incident);
    if (!ref)
      return { verdict: 'skipped', reason: `no ${label} ${noun} was opened for incident ${incident}` };
    return acknowledged
      ? steps.comment(channel, event, ref, io.send)
      : steps.close(channel, event, ref, io.send);
  };
}
