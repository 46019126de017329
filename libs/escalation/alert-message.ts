import { summarize } from '../connectors/index.js';
import type { ContactEvent, ContactMethodType } from '../contact-methods/index.js';
import type { EventPayload } from '../events/index.js';

/* What a paged person reads or hears: pure. */

/** Methods whose text is all the person gets: the acknowledge link goes early, before anything a limit may cut. */
const TEXT_ONLY = new Set<ContactMethodType>(['sms', 'signal']);

export interface PersonalAlert {
  title: string;
  text: string;
  spoken: string;
  ackUrl?: string;
}

/** Spoken text leaves out what a voice cannot read well: links and long excerpts. */
const speakable = (text: string) =>
  text
    .replace(/https?:\/\/\S+/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** A page for an incident's problem, with the link that acknowledges it. */
export function pageMessage(
  event: EventPayload,
  type: ContactMethodType,
  ackUrl: string,
  step: string,
): PersonalAlert {
  const summary = summarize(event);
  const url = event.data.website?.url;
  const reason = summary.reason ? `${summary.reason}.` : '';
  const text = TEXT_ONLY.has(type)
    ? [`webmon: ${summary.title}.`, `Acknowledge: ${ackUrl}`, reason, url].filter(Boolean).join(' ')
    : [`${summary.title}.`, reason, url, summary.link ? `Incident: ${summary.link}` : null, `(${step})`]
        .filter(Boolean)
        .join('\n');
  return {
    title: `[webmon] ${summary.title}`,
    text,
    spoken: `webmon alert. ${speakable(summary.title)}. ${speakable(reason)}`,
    // A call's keypress comes back as the provider's callback, answered with its markup.
    ackUrl: type === 'voice' ? `${ackUrl}/voice` : ackUrl,
  };
}

/** What a paged person is told when the problem ends or someone takes it. */
export function closingMessage(
  event: EventPayload,
  kind: Exclude<ContactEvent, 'alert'>,
  by: string | null,
): PersonalAlert {
  const summary = summarize(event);
  const subject = event.data.website?.name ?? 'A website';
  const title =
    kind === 'recovery' ? `${subject} is up again` : `${subject}: acknowledged by ${by ?? 'someone'}`;
  const text =
    kind === 'recovery'
      ? `webmon: ${title}. No need to act any more.`
      : `webmon: ${title}. You are not paged for it any more. (${summary.title})`;
  return { title: `[webmon] ${title}`, text, spoken: speakable(text) };
}
