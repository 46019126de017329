import { type ConfirmationMail, unsubscribeHeaders } from './subscription-mails.js';

/** What a page's subscribers are told of: an incident post's updates and planned maintenance. */
export const NOTICE_KINDS = [
  'incident.created',
  'incident.updated',
  'incident.resolved',
  'incident.reopened',
  'maintenance.scheduled',
  'maintenance.started',
  'maintenance.ended',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** One piece of news of a page, mailed once to each of its subscribers who want it. */
export interface PageNotice {
  /** Says what it tells (`post:<postId>:<updateId>`, `maintenance:<windowId>:<phase>`): told once. */
  _id: string;
  organizationId: number;
  pageId: number;
  kind: NoticeKind;
  /** The post's or the maintenance's title. */
  title: string;
  /** The update's status in words ("Investigating", "Resolved", "Scheduled"). */
  status: string;
  /** The message as plain text (Markdown as written) and as safe HTML. */
  text: string;
  html: string;
  /** The page's websites it is about (empty: the whole page). */
  components: number[];
  componentNames: string[];
  /** Where it is read on the page, below the page's address (`/incidents/12`); null: the page itself. */
  path: string | null;
  /** When it happened (the update posted, the maintenance's start or end). */
  at: Date;
  /** When it times are shown (the window's start and end, for maintenance). */
  window: { startsAt: Date; endsAt: Date } | null;
  state: 'mailing' | 'done';
  /** Subscribers mailed so far, and when the last one was. */
  sent: number;
  finishedAt: Date | null;
  createdAt: Date;
}

/** Whether a subscriber to `subscribed` (null: the whole page) is told of news about `affected` (empty: all). */
export function wantsNotice(subscribed: readonly number[] | null, affected: readonly number[]): boolean {
  if (subscribed === null || affected.length === 0) return true;
  const chosen = new Set(subscribed);
  return affected.some((id) => chosen.has(id));
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const KIND_WORDS: Record<NoticeKind, string> = {
  'incident.created': 'New incident',
  'incident.updated': 'Incident update',
  'incident.resolved': 'Resolved',
  'incident.reopened': 'Incident reopened',
  'maintenance.scheduled': 'Maintenance planned',
  'maintenance.started': 'Maintenance started',
  'maintenance.ended': 'Maintenance ended',
};

const utc = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * The mail of a notice to one subscriber: its page, what happened, the message, where to read
 * more, and how to leave (in the body and in the RFC 8058 headers).
 */
export function noticeMail(
  notice: PageNotice,
  page: { title: string; url: string },
  unsubscribeUrl: string,
): ConfirmationMail {
  const readAt = notice.path ? `${page.url}${notice.path}` : page.url;
  const affected = notice.componentNames.length > 0 ? notice.componentNames.join(', ') : null;
  const when = notice.window
    ? `${utc(notice.window.startsAt)} – ${utc(notice.window.endsAt)}`
    : utc(notice.at);
  const subject = `[${page.title}] ${KIND_WORDS[notice.kind]}: ${notice.title}`;
  const text = [
    `${KIND_WORDS[notice.kind]} on ${page.title}: ${notice.title}`,
    `Status: ${notice.status}`,
    ...(affected ? [`Affects: ${affected}`] : []),
    `When: ${when}`,
    '',
    notice.text,
    '',
    `Read more: ${readAt}`,
    '',
    `You get this because you subscribed to ${page.title}. To leave: ${unsubscribeUrl}`,
  ].join('\n');
  const html = [
    `<p><strong>${escapeHtml(KIND_WORDS[notice.kind])}</strong> on ${escapeHtml(page.title)}: ${escapeHtml(notice.title)}</p>`,
    `<p>Status: ${escapeHtml(notice.status)}${affected ? `<br>Affects: ${escapeHtml(affected)}` : ''}<br>When: ${escapeHtml(when)}</p>`,
    // Rendered by the post's own Markdown renderer and sanitizer: safe as it is.
    notice.html,
    `<p><a href="${escapeHtml(readAt)}">Read more</a></p>`,
    `<p style="color:#666">You get this because you subscribed to ${escapeHtml(page.title)}. <a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe</a></p>`,
  ].join('\n');
  return { subject, text, html, headers: unsubscribeHeaders(unsubscribeUrl) };
}
