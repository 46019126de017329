import type { EventPayload } from '../events/index.js';
import type { EventSummary } from './event-summary.js';
import { incomingWebhook } from './incoming-webhook.js';
import { fitEscaped, utf8Bytes } from './text-fit.js';

/**
 * Teams takes messages of up to about 28 KB: the long texts (why, a template's output) get 16 KB
 * between them, the rest (title, URLs, the answer's 300 characters) stays well within the others.
 */
const LONG_TEXT_BYTES = 16_000;
const long = (text: string) => fitEscaped(text, LONG_TEXT_BYTES, undefined, utf8Bytes);

/**
 * An Adaptive Card (1.4, full width) in the `attachments` envelope that a Workflows webhook ("Post
 * to a channel when a webhook request is received") reads: the title, then the channel's template
 * or the facts, and actions opening the incident, the screenshot and the website.
 */
export function teamsCard(event: EventPayload, summary: EventSummary, template: string | undefined) {
  const website = event.data.website;
  const facts = [
    website ? { title: 'Website', value: website.url } : null,
    event.data.status ? { title: 'Status', value: event.data.status } : null,
    summary.reason ? { title: 'Reason', value: long(summary.reason) } : null,
    summary.excerpt ? { title: 'Answer', value: summary.excerpt } : null,
    { title: 'At', value: event.createdAt },
  ].filter(Boolean);
  const color =
    summary.severity === 'info' ? 'Good' : summary.severity === 'warning' ? 'Warning' : 'Attention';
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          msteams: { width: 'Full' },
          body: [
            { type: 'TextBlock', text: summary.title, weight: 'Bolder', size: 'Medium', wrap: true, color },
            template ? { type: 'TextBlock', text: long(template), wrap: true } : { type: 'FactSet', facts },
          ],
          actions: [
            summary.link ? { type: 'Action.OpenUrl', title: 'Open incident', url: summary.link } : null,
            summary.screenshot
              ? { type: 'Action.OpenUrl', title: 'Open screenshot', url: summary.screenshot }
              : null,
            website ? { type: 'Action.OpenUrl', title: 'Open website', url: website.url } : null,
          ].filter(Boolean),
        },
      },
    ],
  };
}

/**
 * Microsoft Teams through Power Automate Workflows, the successor of the retired Office 365
 * connectors: the workflow's HTTP trigger URL is the credential.
 */
export const teamsworkflows = incomingWebhook(
  'Microsoft Teams (Workflows)',
  'Write-only: the HTTP URL of a Teams workflow “Post to a channel when a webhook request is received” (…logic.azure.com… or …environment.api.powerplatform.com…)',
  teamsCard,
);
