import { z } from 'zod';
import type { EventPayload } from '../events/index.js';
import type { OpenedChannel, PersonalMessage, Verdict } from './connector.js';
import { summarize } from './event-summary.js';
import { PLAIN } from './markup.js';
import { messageSegments } from './message-parts.js';
import { fitSegments, type Segment } from './text-fit.js';

/** What SMS, voice and Signal connectors share: numbers, senders, texts within a provider's length. */

export const E164 = /^\+[1-9]\d{6,14}$/;

export const phoneNumber = () => z.string().regex(E164, 'must be an E.164 number such as +14155550100');

/** The numbers a channel's alerts go to: 1–20, distinct. */
export const phoneNumbers = () =>
  z
    .array(phoneNumber())
    .min(1)
    .max(20)
    .refine((numbers) => new Set(numbers).size === numbers.length, 'numbers must not repeat')
    .describe('The numbers alerts go to, in E.164 (+14155550100), 1–20');

/** A sender: a number, or an alphanumeric sender id where the destination country allows one. */
export const senderId = () =>
  z
    .string()
    .regex(
      /^(\+[1-9]\d{6,14}|[A-Za-z0-9][A-Za-z0-9 ]{0,10})$/,
      'must be an E.164 number or an alphanumeric sender id of up to 11 characters',
    );

/** A number as the providers that want digits only take it (Vonage, MessageBird): no `+`. */
export const digits = (number: string) => number.replace(/^\+/, '');

/** An event as a text message of at most `max` characters: the template's text, else the title, why and links. */
export const eventText = (channel: OpenedChannel, event: EventPayload, max: number) =>
  fitSegments(messageSegments(channel, event, summarize(event), PLAIN), max);

/** A personal message as a text of at most `max` characters, ending with its acknowledgement link. */
export function personalText(message: PersonalMessage, max: number): string {
  const ack =
    message.ackUrl && !message.text.includes(message.ackUrl) ? `Acknowledge: ${message.ackUrl}` : null;
  const segments: Segment[] = [{ plain: message.text }, ...(ack ? [ack] : [])];
  return fitSegments(segments, max);
}

/** Why a personal message cannot go to `to`: it is not a number (null: it is one). */
export const notANumber = (to: string): Verdict | null =>
  E164.test(to) ? null : { verdict: 'skipped', reason: 'the address is not an E.164 number' };

/**
 * Sends to each number in turn and says how the first that failed went (a retry sends to every
 * number again: delivery is at least once), else how the last went.
 */
export async function toEach(
  numbers: readonly string[],
  send: (to: string) => Promise<Verdict>,
): Promise<Verdict> {
  let last: Verdict = { verdict: 'skipped', reason: 'the channel has no numbers' };
  for (const number of numbers) {
    last = await send(number);
    if (last.verdict !== 'done') return last;
  }
  return last;
}

export const numbersOf = (channel: OpenedChannel): string[] =>
  Array.isArray(channel.config.to) ? channel.config.to : [];
