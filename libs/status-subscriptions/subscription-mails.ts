import { type PageLanguage, translator } from '../status-pages/index.js';

/** A mail of a subscription, before its address: what `PersonMail` takes besides `to`. */
export interface ConfirmationMail {
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

const escapeAttribute = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The double opt-in mail, in the page's language: the link confirms, ignoring it subscribes
 * nobody. It says which page and how long the link holds, and nothing about whether the address
 * was subscribed before.
 */
export function confirmationMail(input: {
  pageTitle: string;
  confirmUrl: string;
  hours: number;
  /** Absent: English (pages stored before languages). */
  language?: PageLanguage;
}): ConfirmationMail {
  const { pageTitle, confirmUrl, hours } = input;
  const t = translator({ language: input.language });
  const subject = t.text('mail.confirmSubject', { title: pageTitle });
  const text = [
    t.text('mail.confirmAsked', { title: pageTitle }),
    '',
    t.text('mail.confirmOpen'),
    confirmUrl,
    '',
    t.text('mail.confirmHolds', { hours }),
  ].join('\n');
  const html = [
    `<p>${escapeAttribute(t.text('mail.confirmAsked', { title: pageTitle }))}</p>`,
    `<p><a href="${escapeAttribute(confirmUrl)}">${escapeAttribute(t.text('mail.confirmLink'))}</a></p>`,
    `<p>${escapeAttribute(t.text('mail.confirmHolds', { hours }))}</p>`,
  ].join('\n');
  return { subject, text, html };
}

/** After a confirmation: what the subscriber will get, and the link to leave (in its headers too). */
export function welcomeMail(input: {
  pageTitle: string;
  pageUrl: string;
  unsubscribeUrl: string;
  language?: PageLanguage;
}): ConfirmationMail {
  const { pageTitle, pageUrl, unsubscribeUrl } = input;
  const t = translator({ language: input.language });
  const text = [
    t.text('mail.welcomeText', { title: pageTitle, url: pageUrl }),
    '',
    t.text('mail.welcomeWhat'),
    '',
    t.text('mail.toLeave', { url: unsubscribeUrl }),
  ].join('\n');
  const link = `<a href="${escapeAttribute(pageUrl)}">${escapeAttribute(pageTitle)}</a>`;
  const html = [
    // The words escaped, then the link put in their placeholder (the link's parts escaped on their own).
    `<p>${escapeAttribute(t.raw('mail.welcomeHtml')).replace(/\{link\}/g, () => link)}</p>`,
    `<p>${escapeAttribute(t.text('mail.welcomeWhat'))}</p>`,
    `<p><a href="${escapeAttribute(unsubscribeUrl)}">${escapeAttribute(t.text('mail.unsubscribe'))}</a></p>`,
  ].join('\n');
  return {
    subject: t.text('mail.welcomeSubject', { title: pageTitle }),
    text,
    html,
    headers: unsubscribeHeaders(unsubscribeUrl),
  };
}

/**
 * The headers every mail to a subscriber carries (RFC 2369 and RFC 8058): a mail client's
 * "unsubscribe" button posts `List-Unsubscribe=One-Click` to the link, no page to open.
 */
export function unsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  return {
    'List-Unsubscribe': `<${unsubscribeUrl}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}
