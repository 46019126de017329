import { incomingWebhook } from './incoming-webhook.js';

/** Microsoft Teams through a Workflows webhook: an Adaptive Card. */
export const teams = incomingWebhook(
  'Microsoft Teams',
  'A Workflows (Power Automate) webhook URL; write-only',
  (event, summary) => {
    const website = event.data.website;
    const facts = [
      website ? { title: 'Website', value: website.url } : null,
      event.data.status ? { title: 'Status', value: event.data.status } : null,
      summary.reason ? { title: 'Reason', value: summary.reason } : null,
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
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              { type: 'TextBlock', text: summary.title, weight: 'Bolder', size: 'Medium', wrap: true, color },
              { type: 'FactSet', facts },
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
  },
);
