import { z } from 'zod';
import { apiBase, serverApiBase } from './api-base.js';
import { defineConnector, verdictOf } from './connector.js';
import { type Severity, summarize } from './event-summary.js';
import { COMMONMARK } from './markup.js';
import { JSON_TYPE, messageSegments } from './message-parts.js';
import { cut, fitSegments } from './text-fit.js';

/** Gotify sets no length: a phone notification's worth (ours). */
const MESSAGE_CHARS = 4096;
const TITLE_CHARS = 250;
/** Gotify's Android app: 8 and up pops up with sound, 4–7 sound, below quiet. */
const PRIORITY: Record<Severity, number> = { critical: 8, error: 8, warning: 5, info: 4 };

/**
 * Gotify (self-hosted push): `POST /message` with the application's token in `X-Gotify-Key`,
 * Markdown, opening the incident when tapped.
 */
export const gotify = defineConnector({
  label: 'Gotify',
  shape: {
    apiBaseUrl: serverApiBase('https://gotify.example.com'),
    appToken: z
      .string()
      .regex(/^[A-Za-z0-9._-]{10,128}$/, 'must be a Gotify application token')
      .describe('Write-only: the token of an application (Apps → Create application)'),
  },
  secrets: ['appToken'],
  defaults: {},
  async deliver(channel, event, io) {
    const summary = summarize(event);
    return verdictOf(
      await io.send({
        method: 'POST',
        url: `${apiBase(channel.config, '')}/message`,
        headers: { ...JSON_TYPE, 'x-gotify-key': channel.secrets.appToken ?? '' },
        body: JSON.stringify({
          title: cut(summary.title, TITLE_CHARS),
          message: fitSegments(
            messageSegments(channel, event, summary, COMMONMARK, { title: false }),
            MESSAGE_CHARS,
          ),
          priority: PRIORITY[summary.severity],
          extras: {
            'client::display': { contentType: 'text/markdown' },
            ...(summary.link ? { 'client::notification': { click: { url: summary.link } } } : {}),
          },
        }),
      }),
    );
  },
});
