import {
  CATALOG,
  type MessageKey,
  type PageLanguage,
  type Translator,
  translator,
} from '../status-pages/index.js';
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
  /** The last subscriber (by id) of the batches told whole: a mailing taken over goes on after it. */
  through?: string | null;
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

const KIND_KEY: Record<NoticeKind, MessageKey> = {
  'incident.created': 'notice.incidentCreated',
  'incident.updated': 'notice.incidentUpdated',
  'incident.resolved': 'notice.incidentResolved',
  'incident.reopened': 'notice.incidentReopened',
  'maintenance.scheduled': 'notice.maintenanceScheduled',
  'maintenance.started': 'notice.maintenanceStarted',
  'maintenance.ended': 'notice.maintenanceEnded',
};

/**
 * The status words a notice was stored with (English: a post's status, a maintenance's phase),
 * by the key that says them in any language.
 */
const STATUS_KEYS: readonly MessageKey[] = [
  'postStatus.investigating',
  'postStatus.identified',
  'postStatus.monitoring',
  'postStatus.resolved',
  'notice.maintenanceScheduledStatus',
  'notice.maintenanceStartedStatus',
  'notice.maintenanceEndedStatus',
];

/** A notice's status in the page's language (a word we did not write stays as it is). */
function statusIn(t: Translator, status: string): string {
  const key = STATUS_KEYS.find((candidate) => CATALOG.en[candidate] === status);
  return key ? t.text(key) : status;
}

/** Words escaped, their placeholders filled in one pass with markup made safe by the caller. */
const markup = (text: string, parts: Record<string, string>) =>
  escapeHtml(text).replace(/\{(\w+)\}/g, (whole, name: string) => parts[name] ?? whole);

/** The page a notice is mailed about: its title, address, language and time zone (absent: en, UTC). */
export interface NoticePage {
  title: string;
  url: string;
  language?: PageLanguage;
  timezone?: string;
}

/**
 * The mail of a notice to one subscriber: its page, what happened, the message, where to read
 * more, and how to leave (in the body and in the RFC 8058 headers).
 */
export function noticeMail(notice: PageNotice, page: NoticePage, unsubscribeUrl: string): ConfirmationMail {
  const t = translator({ language: page.language, timezone: page.timezone });
  const readAt = notice.path ? `${page.url}${notice.path}` : page.url;
  const affected = notice.componentNames.length > 0 ? notice.componentNames.join(', ') : null;
  const when = notice.window
    ? `${t.dateTime(notice.window.startsAt)} – ${t.dateTime(notice.window.endsAt)}`
    : t.dateTime(notice.at);
  const kind = t.text(KIND_KEY[notice.kind]);
  const status = statusIn(t, notice.status);
  const subject = `[${page.title}] ${kind}: ${notice.title}`;
  const text = [
    t.text('notice.headline', { kind, page: page.title, title: notice.title }),
    t.text('notice.status', { status }),
    ...(affected ? [t.text('notice.affects', { components: affected })] : []),
    t.text('notice.when', { when }),
    '',
    notice.text,
    '',
    t.text('notice.readMoreAt', { url: readAt }),
    '',
    t.text('notice.whyToLeave', { page: page.title, url: unsubscribeUrl }),
  ].join('\n');
  // Each line's words escaped with what is filled in (titles and names are the tenant's text).
  const line = (key: MessageKey, values: Record<string, string>) => escapeHtml(t.text(key, values));
  const html = [
    `<p>${markup(t.raw('notice.headline'), {
      kind: `<strong>${escapeHtml(kind)}</strong>`,
      page: escapeHtml(page.title),
      title: escapeHtml(notice.title),
    })}</p>`,
    `<p>${line('notice.status', { status })}${affected ? `<br>${line('notice.affects', { components: affected })}` : ''}<br>${line('notice.when', { when })}</p>`,
    // Rendered by the post's own Markdown renderer and sanitizer: safe as it is.
    notice.html,
    `<p><a href="${escapeHtml(readAt)}">${escapeHtml(t.text('notice.readMore'))}</a></p>`,
    `<p style="color:#666">${line('notice.why', { page: page.title })} <a href="${escapeHtml(unsubscribeUrl)}">${escapeHtml(t.text('mail.unsubscribe'))}</a></p>`,
  ].join('\n');
  return { subject, text, html, headers: unsubscribeHeaders(unsubscribeUrl) };
}
