/** A mail of a subscription, before its address: what `PersonMail` takes besides `to`. */
export interface ConfirmationMail {
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

const escapeAttribute = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The double opt-in mail: the link confirms, ignoring it subscribes nobody. It says which page
 * and how long the link holds, and nothing about whether the address was subscribed before.
 */
export function confirmationMail(input: {
  pageTitle: string;
  confirmUrl: string;
  hours: number;
}): ConfirmationMail {
  const { pageTitle, confirmUrl, hours } = input;
  const subject = `Confirm your subscription to ${pageTitle}`;
  const text = [
    `Someone, probably you, asked to be told by e-mail about incidents and maintenance on the status page "${pageTitle}".`,
    '',
    'To confirm, open this link:',
    confirmUrl,
    '',
    `The link holds for ${hours} hours. If you did not ask for this, ignore this mail: nothing is sent to you unless you confirm.`,
  ].join('\n');
  const html = [
    `<p>Someone, probably you, asked to be told by e-mail about incidents and maintenance on the status page “${escapeAttribute(pageTitle)}”.</p>`,
    `<p><a href="${escapeAttribute(confirmUrl)}">Confirm the subscription</a></p>`,
    `<p>The link holds for ${hours} hours. If you did not ask for this, ignore this mail: nothing is sent to you unless you confirm.</p>`,
  ].join('\n');
  return { subject, text, html };
}

/** After a confirmation: what the subscriber will get, and the link to leave (in its headers too). */
export function welcomeMail(input: {
  pageTitle: string;
  pageUrl: string;
  unsubscribeUrl: string;
}): ConfirmationMail {
  const { pageTitle, pageUrl, unsubscribeUrl } = input;
  const text = [
    `You are subscribed to the status page "${pageTitle}": ${pageUrl}`,
    '',
    'You will get a mail when an incident is posted, updated or resolved, and about planned maintenance.',
    '',
    `To leave: ${unsubscribeUrl}`,
  ].join('\n');
  const html = [
    `<p>You are subscribed to the status page <a href="${escapeAttribute(pageUrl)}">${escapeAttribute(pageTitle)}</a>.</p>`,
    '<p>You will get a mail when an incident is posted, updated or resolved, and about planned maintenance.</p>',
    `<p><a href="${escapeAttribute(unsubscribeUrl)}">Unsubscribe</a></p>`,
  ].join('\n');
  return {
    subject: `Subscribed to ${pageTitle}`,
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
