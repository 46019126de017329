import { incomingWebhook } from './incoming-webhook.js';

/** Slack mrkdwn treats &, < and > as markup. */
const slackEscape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export const slack = incomingWebhook('Slack', null, (event, summary) => {
  const url = event.data.website?.url;
  const details = [
    url ? `<${url}|${slackEscape(url)}>` : null,
    summary.reason ? slackEscape(summary.reason) : null,
  ].filter(Boolean);
  return {
    text: summary.title,
    blocks: [
      {
        type: 'section',
        text: { type: 'mrkdwn', text: [`*${slackEscape(summary.title)}*`, ...details].join('\n') },
      },
    ],
  };
});
