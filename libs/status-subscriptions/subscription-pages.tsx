import type { ComponentChildren } from 'preact';
import { type PageLanguage, renderVisitorPage, type Translator, translator } from '../status-pages/index.js';
import type { SubscribablePage } from './subscription.service.js';

/**
 * The pages a visitor sees around a subscription, without script, in the page's language: the
 * form, "check your mail", and the two links' pages. A link from a mail only shows a button: mail
 * scanners open links to look at them, and a GET that confirmed or unsubscribed would do it for them.
 */

interface PageLook {
  title: string;
  accent?: string | null;
  /** Absent on pages stored before languages: English. */
  language?: PageLanguage;
}

const translatorOf = (page: PageLook) => translator({ language: page.language });

const back = (pagePath: string, title: string) => (
  <p>
    <a href={pagePath}>{`← ${title}`}</a>
  </p>
);

/** A page around a subscription: the status page's look and language, a link back to it, then `children`. */
function visitorPage(
  page: PageLook,
  t: Translator,
  title: string,
  pagePath: string,
  children: ComponentChildren,
) {
  return renderVisitorPage({
    title,
    accent: page.accent ?? null,
    t,
    children: (
      <>
        {back(pagePath, page.title)}
        {children}
      </>
    ),
  });
}

/**
 * The subscribe form: an address and, when the page has several websites, which of them. A
 * problem with what was sent is said in the page's words (`error`: that there was one).
 */
export function renderSubscribeForm(input: {
  page: SubscribablePage & PageLook;
  pagePath: string;
  error?: string;
  email?: string;
}): string {
  const { page, pagePath } = input;
  const t = translatorOf(page);
  return visitorPage(
    page,
    t,
    t.text('subscribe.title', { title: page.title }),
    pagePath,
    <>
      <h1>{t.text('subscribe.heading')}</h1>
      <p>{t.text('subscribe.intro')}</p>
      {input.error && (
        <p role="alert" class="error">
          {t.text('subscribe.invalid')}
        </p>
      )}
      <form method="post" action={`${pagePath}/subscriptions`}>
        <p>
          <label for="email">{t.text('subscribe.email')}</label>
          <br />
          <input
            id="email"
            name="email"
            type="email"
            autocomplete="email"
            required
            maxLength={254}
            value={input.email ?? ''}
          />
        </p>
        {page.components.length > 1 && (
          <fieldset>
            <legend>{t.text('subscribe.onlyThese')}</legend>
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
          <button type="submit">{t.text('subscribe.submit')}</button>
        </p>
      </form>
    </>,
  );
}

/** After a request from the form: the same words whether the address was new, pending or subscribed. */
export function renderCheckYourMail(input: { page: PageLook; pagePath: string }): string {
  const t = translatorOf(input.page);
  return visitorPage(
    input.page,
    t,
    t.text('subscribe.title', { title: input.page.title }),
    input.pagePath,
    <>
      <h1>{t.text('subscribe.checkMail')}</h1>
      <p role="status">{t.text('subscribe.checkMailText')}</p>
    </>,
  );
}

/** A link from a mail: a button that does what it says (a POST to the same address). */
export function renderLinkAction(input: {
  page: PageLook;
  pagePath: string;
  action: 'confirm' | 'unsubscribe';
  formAction: string;
}): string {
  const confirm = input.action === 'confirm';
  const t = translatorOf(input.page);
  return visitorPage(
    input.page,
    t,
    t.text(confirm ? 'subscribe.confirmTitle' : 'subscribe.unsubscribeTitle', { title: input.page.title }),
    input.pagePath,
    <>
      <h1>{t.text(confirm ? 'subscribe.confirmHeading' : 'subscribe.leaveHeading')}</h1>
      <form method="post" action={input.formAction}>
        <button type="submit">{t.text(confirm ? 'subscribe.confirm' : 'subscribe.unsubscribe')}</button>
      </form>
    </>,
  );
}

/** What a followed link did, or that it holds no more (expired, used, or never ours: one answer). */
export function renderLinkOutcome(input: {
  page: PageLook;
  pagePath: string;
  action: 'confirm' | 'unsubscribe';
  done: boolean;
}): string {
  const { action, done } = input;
  const t = translatorOf(input.page);
  const heading = t.text(
    !done
      ? 'subscribe.linkInvalid'
      : action === 'confirm'
        ? 'subscribe.subscribed'
        : 'subscribe.unsubscribed',
  );
  const text = t.text(
    !done
      ? action === 'confirm'
        ? 'subscribe.confirmExpired'
        : 'subscribe.unsubscribeGone'
      : action === 'confirm'
        ? 'subscribe.subscribedText'
        : 'subscribe.unsubscribedText',
  );
  return visitorPage(
    input.page,
    t,
    t.text('subscribe.outcomeTitle', { heading, title: input.page.title }),
    input.pagePath,
    <>
      <h1>{heading}</h1>
      <p role="status">{text}</p>
    </>,
  );
}
