import type { Segment } from './text-fit.js';

/**
 * Each tool's markup: how a text from outside (a website's name, what a check said, a template's
 * output) is escaped so it shows as written, how a link and a bold title are written.
 */

export interface Markup {
  escape(text: string): string;
  /** `escaped` (already escaped) in bold. */
  bold(escaped: string): string;
  link(url: string, label: string): string;
  /** A URL shown as itself (cut when long), a link where the tool would not link it as written. */
  address(url: string): Segment;
}

/** A word joiner after each @: `@channel`, `@all`, `@room` in a page's text pings nobody. */
export const noMentions = (text: string) => text.replace(/@/g, '@\u2060');

/** HTML text and attribute values (Telegram's HTML, Matrix's formatted body, TwiML). */
export const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** XML text and attribute values (TwiML). */
export const escapeXml = (text: string) => escapeHtml(text).replace(/'/g, '&apos;');

const asText =
  (literal: (text: string) => string) =>
  (url: string): Segment => ({ plain: url, escape: literal });

/** Markdown's block markers at a line's start (heading, quote, list item) as literal text. */
const lineStarts = (text: string) =>
  text.replace(/^(\s*)([#>+-])/gm, '$1\\$2').replace(/^(\s*\d+)([.)])/gm, '$1\\$2');

/**
 * A Markdown dialect: the inline characters it lets a backslash escape (others would show the
 * backslash), block markers at a line's start, and mentions.
 */
function markdown(inline: RegExp, bold: (escaped: string) => string): Markup {
  const literal = (text: string) => noMentions(lineStarts(text.replace(inline, '\\$&')));
  // Characters that would end the link's target are percent-encoded.
  const target = (url: string) =>
    url.replace(/[()<>\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  return {
    escape: literal,
    bold,
    link: (url, label) => `[${literal(label)}](${target(url)})`,
    // Escapes inside a bare URL would break its autolink: a link whose text is the URL, escaped.
    address: (url) => ({ plain: url, escape: (shown) => `[${literal(shown)}](${target(url)})` }),
  };
}

/** CommonMark (Mattermost). */
export const COMMONMARK = markdown(/[\\`*_~[\]<>]/g, (escaped) => `**${escaped}**`);
/** Rocket.Chat's parser (HTML is shown as text there, so < and > stay). */
export const ROCKETCHAT_MARKDOWN = markdown(/[\\`*_~[\]]/g, (escaped) => `*${escaped}*`);
/** Zulip (Python-Markdown: ~, < and > are not escapable, and HTML shows as text). */
export const ZULIP_MARKDOWN = markdown(/[\\`*_[\]]/g, (escaped) => `**${escaped}**`);

export const HTML: Markup = {
  escape: escapeHtml,
  bold: (escaped) => `<b>${escaped}</b>`,
  link: (url, label) => `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`,
  address: asText(escapeHtml),
};

/** Google Chat's own syntax (incoming webhooks): `*bold*`, `<url|label>`, entities for & < >. */
const escapeEntities = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
export const GOOGLE_CHAT: Markup = {
  escape: escapeEntities,
  address: asText(escapeEntities),
  bold: (escaped) => `*${escaped}*`,
  link: (url, label) => `<${url.replace(/[|>]/g, encodeURIComponent)}|${label.replace(/[|>]/g, '')}>`,
};

/** Text shown as it is (SMS, push notifications): a link is its label and URL. */
export const PLAIN: Markup = {
  escape: (text) => text,
  address: (url) => ({ plain: url }),
  bold: (text) => text,
  link: (url, label) => `${label}: ${url}`,
};
