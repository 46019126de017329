import { renderVisitorPage } from '../status-pages/index.js';
import type { SubscribablePage } from './subscription.service.js';

/**
 * The pages a visitor sees around a subscription, without script: the form, "check your mail",
 * and the two links' pages. A link from a mail only shows a button: mail scanners open links to
 * look at them, and a GET that confirmed or unsubscribed would do it for them.
 */

interface PageLook {
  title: string;
  accent?: string | null;
}

const back = (pagePath: string, title: string) => (
  <p>
    <a href={pagePath}>{`← ${title}`}</a>
  </p>
);

/** The subscribe form: an address and, when the page has several websites, which of them. */
export function renderSubscribeForm(input: {
  page: SubscribablePage & PageLook;
  pagePath: string;
  error?: string;
  email?: string;
}): string {
  const { page, pagePath } = input;
  return renderVisitorPage({
    title: `Subscribe: ${page.title}`,
    accent: page.accent ?? null,
    children: (
      <>
        {back(pagePath, page.title)}
        <h1>Get updates by e-mail</h1>
        <p>
          We mail you when an incident is posted, updated or resolved, and when maintenance is planned, starts
          or ends. You confirm by a link we mail you first; every mail has a link to leave.
        </p>
        {input.error && (
          <p role="alert" class="error">
            {input.error}
          </p>
        )}
        <form method="post" action={`${pagePath}/subscriptions`}>
          <p>
            <label for="email">E-mail address</label>
            <br />
            <input id="email" name="email" type="email" required maxLength={254} value={input.email ?? ''} />
          </p>
          {page.components.length > 1 && (
            <fieldset>
              <legend>Only about these (none ticked: all of them)</legend>
              {page.components.map((component) => (
                <p>
                  <label>
                    <input type="checkbox" name="components" value={String(component.id)} /> {component.name}
                  </label>
                </p>
              ))}
            </fieldset>
          )}
          <p>
            <button type="submit">Subscribe</button>
          </p>
        </form>
      </>
    ),
  });
}

/** After a request from the form: the same words whether the address was new, pending or subscribed. */
export function renderCheckYourMail(input: { page: PageLook; pagePath: string }): string {
  return renderVisitorPage({
    title: `Subscribe: ${input.page.title}`,
    accent: input.page.accent ?? null,
    children: (
      <>
        {back(input.pagePath, input.page.title)}
        <h1>Check your mail</h1>
        <p role="status">
          If the address can be subscribed, a link to confirm is on its way to it. Nothing is sent to it until
          the link is followed.
        </p>
      </>
    ),
  });
}

/** A link from a mail: a button that does what it says (a POST to the same address). */
export function renderLinkAction(input: {
  page: PageLook;
  pagePath: string;
  action: 'confirm' | 'unsubscribe';
  formAction: string;
}): string {
  const confirm = input.action === 'confirm';
  return renderVisitorPage({
    title: `${confirm ? 'Confirm' : 'Unsubscribe'}: ${input.page.title}`,
    accent: input.page.accent ?? null,
    children: (
      <>
        {back(input.pagePath, input.page.title)}
        <h1>{confirm ? 'Confirm your subscription' : 'Leave this status page’s mails'}</h1>
        <form method="post" action={input.formAction}>
          <button type="submit">{confirm ? 'Confirm' : 'Unsubscribe'}</button>
        </form>
      </>
    ),
  });
}

/** What a followed link did, or that it holds no more (expired, used, or never ours: one answer). */
export function renderLinkOutcome(input: {
  page: PageLook;
  pagePath: string;
  action: 'confirm' | 'unsubscribe';
  done: boolean;
}): string {
  const { action, done } = input;
  const heading = !done
    ? 'This link does not hold'
    : action === 'confirm'
      ? 'You are subscribed'
      : 'You are unsubscribed';
  const text = !done
    ? action === 'confirm'
      ? 'It has expired or was used already. Subscribe again from the status page to get a new one.'
      : 'It was used already, or the subscription is gone. You get no more mails from this page.'
    : action === 'confirm'
      ? 'You will get a mail when an incident is posted, updated or resolved, and about planned maintenance.'
      : 'You get no more mails from this status page.';
  return renderVisitorPage({
    title: `${heading}: ${input.page.title}`,
    accent: input.page.accent ?? null,
    children: (
      <>
        {back(input.pagePath, input.page.title)}
        <h1>{heading}</h1>
        <p role="status">{text}</p>
      </>
    ),
  });
}
